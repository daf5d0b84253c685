"""A card's anchor and address on the cards gallery, shared by the server and the lab."""

from rulebook_games.cardlinks import card_anchor, gallery_link, gallery_path


def test_a_card_anchor_is_readable_for_usual_ids_and_never_shared():
    assert card_anchor("mars_university") == "card-mars-university"
    assert card_anchor("red_dragon2") == "card-red-dragon2"
    ids = ["a_b", "a-b", "A_b", "a b", "a.2d.b", "ä", "<x>"]
    anchors = [card_anchor(i) for i in ids]
    assert len(set(anchors)) == len(ids)
    # an anchor is safe in an element id and a URL fragment: no space, quote or angle
    assert all(not set(a) & set(" \"'<>#?&/") for a in anchors)


def test_the_gallery_address_names_the_ruleset_folder_and_its_mods():
    assert gallery_path("lantern_row") == "/cards/lantern_row"
    assert gallery_path("lantern_row", ["rich_start", "long festival"]) == \
        "/cards/lantern_row?mod=rich_start&mod=long+festival"
    assert gallery_path("../x") == "/cards/..%2Fx"
    assert gallery_link("http://127.0.0.1:8000/", "terraforming_mars", "predators",
                        ["costlier_predators"]) == \
        ("http://127.0.0.1:8000/cards/terraforming_mars?mod=costlier_predators"
         "#card-predators")
