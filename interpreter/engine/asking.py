"""Decisions: asking a seat, the choices effects make, and trial runs.

The part of :class:`~.game.Game` that hands a decision to the deciding seat's
agent (never asking a decision with one legal answer, nor, inside an action,
offering an answer the game refused at that position before: see
:mod:`.refusals`), validates and records the answer and logs it when it is
public; builds the decisions of the choices inside effects (choose one of, a
number, an order, 'may', a player or a space); and runs an effect as a trial
on a snapshot to learn whether (and why not) it can be carried out, or an
action again with given answers (the trials of :mod:`.refusals`).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from ..lang.runtime import RequirementFailed, RuleRuntimeError
from ..lang.words import told
from ..lang.words.english import possessive
from .decisions import ActionRefused, Decision, IllegalAnswer, Option, Options
from .refusals import Stretch, narrow, together
from .state import CardRef


class _MoreToAsk(Exception):
    """A trial run reached a question its answers do not settle."""


def _text(t) -> str:
    return t if isinstance(t, str) else str(t())


def _conjuncts(e) -> list:
    """The parts of a condition joined by 'and'."""
    from ..lang import ast
    if isinstance(e, ast.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


_DATA_BUILTINS = {"occurrences", "size", "item", "min", "max", "abs"}  # of their arguments only


def _card_data_only(rs, e, names: frozenset, seen: frozenset = frozenset()) -> bool:
    """Whether a condition reads nothing but ``names`` (cards), their printed fields and
    constants: its truth never changes in a game (card data never changes; a card's owner
    does). Functions of the ruleset are read through their bodies."""
    from ..lang import ast
    for n in ast.walk(e):
        if isinstance(n, ast.Name):
            if n.binding in ("local", None) and n.id not in names:
                return False
            if n.binding in ("track", "player_track"):
                return False
        elif isinstance(n, ast.Field) and n.name == "owner":
            return False
        elif isinstance(n, ast.Comprehension):
            return False
        elif isinstance(n, ast.Call):
            entry = rs.sections["functions"].get(n.func)
            body = rs.asts.get(("function", n.func))
            if entry is not None:
                if n.func in seen or not isinstance(body, ast.Expr):
                    return False
                params = (entry.data.get("params") or {}).keys()
                if not _card_data_only(rs, body, frozenset(params), seen | {n.func}):
                    return False
            elif n.func not in _DATA_BUILTINS:
                return False
    return True


class AskingMixin:
    """Decisions: asking a seat, the choices effects make, and trial runs."""

    def decide(self, decision: Decision) -> int:
        """Ask the deciding seat's agent; validate and record the answer.

        Inside an action, what the game refused before at this position is not
        offered (:mod:`.refusals`): the answer returned is always one of the
        decision as built (an index into its options, or a number in its range)."""
        if decision.count() == 0:
            raise ActionRefused(f"nothing can be chosen for: {decision.prompt}")
        if self.dry_run:
            if self.replaying is not None and self.replaying[0] == self.dry_run:
                return self._replayed(decision)  # a trial of other answers (refusals.py)
            if decision.count() > 1:
                self.trial_questions += 1  # (a trial that asks may do something: _idle)
            return decision.low if decision.is_range else 0
        if self.hand_prompt:
            self._hand_words(decision)
        if self.showing is not None and not decision.about and decision.kind != "action":
            decision.about = self.alongside(decision.player, decision.options)
        memory = self.refusals
        path = memory.ids  # the answers of the action running now (None: none runs)
        if path is None:  # outside an action: nothing is ever refused and asked again
            return self._ask(decision)
        refused = memory.known.get(tuple(path)) if memory.known else None
        answer = self._ask_narrowed(decision, refused) if refused else self._ask(decision)
        path.append(answer)  # the position of the next decision (see refusals.py)
        memory.steps.append(decision)
        return answer

    def _hand_words(self, decision: Decision) -> None:
        """The author's own words (an action's ``prompt``) for its first question, asked
        or not (a number with one answer too: the line taken for you reads as the
        question would), with the facts the question says."""
        if self.hand_prompt and decision.kind != "action":
            hand = self._prompt_later(str(self.hand_prompt))
            facts = decision.facts
            decision.prompt_text = hand if facts is None else (
                lambda: f"{_text(hand)} ({' · '.join(facts())})" if facts() else _text(hand))
            self.hand_prompt = None

    def _ask_narrowed(self, decision: Decision, refused: dict) -> int:
        """Ask ``decision`` without the answers refused at this position before."""
        asked, back = narrow(decision, refused)
        if asked is None:
            raise ActionRefused(together(decision, refused))
        answer = self._ask(asked, log=asked.kind == decision.kind)
        if back is not None:
            return back[answer]
        if asked.is_range or not isinstance(asked.options[answer].value, Stretch):
            return answer
        low, high = asked.options[answer].value  # a stretch of a long range: then the number
        stretch = Decision(asked.player, "number", decision.prompt_text, low=low, high=high,
                           refused_text=asked.refused_text, about=decision.about)
        return self._ask(stretch)

    def _ask(self, decision: Decision, log: bool = True) -> int:
        """Hand the decision to its seat's agent, unless it has one answer; record it."""
        n = decision.count()
        if n == 1:
            # one rule everywhere: a decision with a single legal answer is not asked,
            # and the record does not hold it
            self.last_forced = decision
            if not decision.is_range:
                if log and self.logging:  # (no words are made for a log nobody keeps)
                    self._log_choice(decision, decision.options[0], only=True)
                if decision.tell_alone:  # (not a phase's only action: its headline says it)
                    self._tell_taken(decision)
            else:
                self._number_taken(decision)
            return decision.low if decision.is_range else 0
        if self.check_invariants:
            from .invariants import check_changes
            check_changes(self)
        agent = self.agents[decision.player]
        self.decision_count += 1
        low = decision.low if decision.is_range else 0
        while True:
            view = self.view(decision.player) if getattr(agent, "wants_view", True) else None
            answer = agent.decide(decision, view, self)
            # (a whole number among the answers: what Decision.check lets through)
            if answer.__class__ is int and low <= answer < low + n:
                break
            problem = decision.check(answer)
            if problem is None:
                break
            if getattr(agent, "scripted", False):
                raise IllegalAnswer(decision, problem)
            agent.refused(decision, problem)
        self.record.append(int(answer))
        self.deciders.append(decision.player)
        self.budget.new_decision()
        if log and decision.kind != "action" and not decision.is_range and self.logging:
            self._log_choice(decision, decision.options[int(answer)])
        return int(answer)

    def _number_taken(self, decision: Decision) -> None:
        """A number question with one answer, taken: the one who would have answered is
        told, in their own log line and through their agent (nothing is recorded)."""
        if self.logging:
            self.log("", {decision.player: f"  {decision.prompt} → {decision.low} "
                                           "(the only choice, taken for you)"})
            self._tell_taken(decision)

    def _tell_taken(self, decision: Decision) -> None:
        """Tell the seat's agent, at once, of an answer taken for it (a person sees it in
        place), while the game keeps a log."""
        if self.logging:
            told = getattr(self.agents[decision.player], "taken", None)
            if told is not None:
                told(decision, self)

    def _replayed(self, decision: Decision) -> int:
        """The next answer of the trial being run; _MoreToAsk once they are used up."""
        answers = self.replaying[1]
        if not answers:
            if decision.count() == 1:  # not a question: the one answer is taken
                return decision.low if decision.is_range else 0
            raise _MoreToAsk
        answer = answers.pop(0)
        if decision.is_range and not decision.low <= answer <= decision.high or \
                not decision.is_range and not 0 <= answer < len(decision.options):
            raise _MoreToAsk  # (the trial went another way than the action: not settled)
        return answer

    def answer_trials(self, run: Callable[[], Any]) -> Callable[[list], str | None]:
        """How to try the action ``run`` carries out with other answers (see
        :meth:`.refusals.Refusals.refuse`): a function of the answers, saying why the
        action is refused when its decisions are answered with them (as the rules
        built them) and it asks nothing more.

        It says None when the action goes through, when it would ask another
        question, or when a rule fails in it: the trial is not settled, and the
        answer stays on offer. The state is left untouched, and nothing is asked,
        recorded or logged. The trials share a work budget of their own, as large
        as a decision's: what they may do does not depend on what else was done
        before (a check, a view), so a record always meets the same refusals. Their
        work counts toward the game's total all the same (``Budget.count_aside``)."""
        budget = type(self.budget)(self.budget.effect_steps, self.budget.decision_steps)
        return lambda answers: self._why_not_answers(run, answers, budget)

    def _why_not_answers(self, run, answers: list, budget) -> str | None:
        snap = self.snapshot()
        record_len = len(self.record)
        saved = self.replaying, self.budget, self.reveals  # (nothing comes out in a trial)
        self.dry_run += 1
        self.replaying = (self.dry_run, list(answers))
        self.budget = budget
        before = budget.used
        try:
            run()
            return None
        except RequirementFailed as exc:
            return exc.message
        except ActionRefused as exc:
            return exc.reason
        except (_MoreToAsk, RuleRuntimeError, RecursionError):
            return None  # (its budget spent, a trial stops at once: nothing is settled)
        finally:
            self.dry_run -= 1
            self.replaying, self.budget, self.reveals = saved
            self.budget.count_aside(budget.used - before)
            self.restore(snap)
            del self.record[record_len:]
            del self.deciders[record_len:]

    def _log_choice(self, decision: Decision, option: Option, only: bool = False) -> None:
        """Log a choice made inside an action when everyone may know it.

        A choice the engine took because it was the only one says so, to the one
        who would have made it even when it is not public; the others then read
        nothing of it (what it did follows in the log)."""
        who = self.state.players[decision.player].name
        if only and decision.kind != "action":
            if not self.logging:
                return
            private = {decision.player: f"  {decision.prompt} → {option.label} (the only "
                                        "choice, taken for you)"}
            public = self._public_choice(decision, option)
            # 'Ann's only choice: deliver 1 relic …' reads for an action and for a name alike
            self.log(f"  {possessive(who)} only choice: {told(option.label)}" if public else "",
                     private)
            return
        if self._public_choice(decision, option):
            # a thing by its name ('chooses Rain'); one of several things to do, after a
            # colon ('chooses: deliver 1 gem onto …', not 'chooses deliver 1 gem')
            branch = decision.kind == "option" and type(option.value) is int
            said = told(option.label)
            self.log(f"  {who} chooses{':' if branch else ''} {said}",
                     {decision.player: f"  {who} chooses{':' if branch else ''} {option.label}"}
                     if said != option.label else None)

    def _public_choice(self, decision: Decision, option: Option) -> bool:
        value = option.value
        if isinstance(value, CardRef):
            c = self.state.cards[value]
            if self.zone_decl[c.zone].get("visibility", "public") != "public":
                return False  # a hidden card: its name is nobody else's business
        elif decision.kind not in ("option", "item") or value is None:
            return False  # yes/no and numbers say nothing without their question
        elif isinstance(value, str) and value in self.space_decl:
            return False  # spaces are logged where tiles are placed
        return True

    def choose_one(self, options: list, optional: bool, prompt: str | None = None,
                   player: int | None = None, left_out: list = ()) -> Any:
        """Ask for one of ``options``. ``left_out``: the items of the list chosen from that
        its condition keeps out (``choose(c in hand where playable(c))``): those the
        chooser may see that are cards are listed as not available, each with why the
        condition does not hold for it (issue 26: never silently missing)."""
        what, self.choice_kind = self.choice_kind, ""
        ask, self.asking = self.asking, None
        if prompt is None:
            noun = {"card": "a card", "player": "a player", "space": "a space",
                    "number": "a number"}.get(what, "one")
            where = self._prompt_later("")  # what is being done, as it is now
            prompt = (lambda: self._ask_prompt(ask, f"choose {noun}", _text(where))) if ask \
                else self._prompt_later(f"choose {noun}")
        if not options and not optional:
            text = prompt if isinstance(prompt, str) else prompt()
            raise ActionRefused(f"{text}: there is nothing to choose")
        # an id (a space, a zone, a resource) is the option's key: scripts may name it;
        # labels are made when read (an agent that reads words, the log), never for a
        # question with one answer that nobody watches
        label = self._label
        options = tuple(options)  # (as they are now, though the caller's list changes)
        opts = Options(options, lambda v: Option(partial(label, v, what), v,
                                                 v if isinstance(v, str) else ""),
                       (Option("none", None, "none"),) if optional else ())
        kind = "card" if options and isinstance(options[0], CardRef) else "item"
        seat = self._acting() if player is None else player
        blocked = self._left_out(left_out, ask, seat) if left_out and not self.dry_run else None
        offered = self.offered
        if self.pricing and kind == "card":  # each card's price, as the procedure says
            self.offered = (seat, self.pricing[-1], frozenset(options))
        lead = self._fields_read(ask) if kind == "card" else ()
        try:
            i = self.decide(Decision(seat, kind, prompt, opts, optional=optional,
                                     refused_text=blocked or {}, lead=lead))
        finally:
            self.offered = offered
        return options[i] if i < len(options) else None  # (opts[i].value, made or not)

    def _fields_read(self, ask) -> tuple:
        """The printed card fields (with a phrase) a choice's condition reads of the card
        chosen: what the question is about, said first with each card (worked out once a
        choice)."""
        node = ask[1] if ask else None
        where = getattr(node, "where", None)
        if where is None:
            return ()
        known = self.rs.__dict__.setdefault("_fields_read", {})
        found = known.get(id(where))
        if found is None:
            from ..lang import ast as A
            fields = self.rs.sections.get("card_fields", {})
            found = known[id(where)] = tuple(dict.fromkeys(
                n.name for n in A.walk(where)
                if isinstance(n, A.Field) and isinstance(n.obj, A.Name)
                and n.obj.id == node.var and n.name in fields
                and isinstance(fields[n.name].data, dict) and fields[n.name].data.get("phrase")))
        return found

    def _left_out(self, items: list, ask, seat: int):
        """The cards a choice's condition keeps out, as refusals: name -> why (the words
        are made when read)."""
        node = ask[1] if ask else None
        where = getattr(node, "where", None)
        if where is None or not isinstance(items[0], CardRef):
            return None
        frame, var = ask[2], node.var
        # the parts of the condition that read only the card's printed data: a card
        # one of them keeps out can never be chosen here (a tile among cards): not listed
        known = self.rs.__dict__.setdefault("_fixed_parts", {})  # (worked out once a choice)
        fixed = known.get(id(where))
        if fixed is None:
            fixed = known[id(where)] = [part for part in _conjuncts(where)
                                        if _card_data_only(self.rs, part, frozenset({var}))]

        def reasons() -> dict:
            out = {}
            evaluate = self.rs.words.evaluate
            for c in items:
                if not isinstance(c, CardRef) or not self.card_visible_to(c, seat):
                    continue
                f = frame.child()
                f.vars[var] = c
                try:
                    if any(not evaluate(part, f) for part in fixed):
                        continue
                except Exception:  # (a part that cannot be read here: the reason says it)
                    pass
                out[self.card_name(c)] = self.rs.words.why_not(where, f)
            return out
        return reasons

    def choose_number(self, low: int, high: int, *facts: int) -> int:
        ask, self.asking = self.asking, None
        where = self._prompt_later("")
        if high < low:
            raise ActionRefused(f"no number between {low} and {high}")
        if high == low:  # not a question: told as one (issue 26), neither asked nor
            # recorded, nor a step of the action's refusals (refusals.py); the action's
            # own words are its words all the same, and not those of the next question.
            # Its only answer none at all ('Sail how many steps?' at the top of the
            # track: 0) is nothing to tell: nothing is done, and nobody was asked
            if self.logging:
                decision = self._number_decision(ask, where, low, high, facts)
                if not self.dry_run:
                    self._hand_words(decision)
                if low != 0:
                    self._number_taken(decision)
            elif not self.dry_run:
                self.hand_prompt = None  # (nobody reads it: nothing to put in words)
            return low
        return self.decide(self._number_decision(ask, where, low, high, facts))

    def _number_decision(self, ask, where, low: int, high: int, facts) -> Decision:
        """A number question, its words made when read: the question, then its facts."""
        def said():
            return self._facts_words(ask, facts)

        def prompt():
            text = self._ask_prompt(ask, "choose a number", _text(where))
            return f"{text} ({' · '.join(said())})" if said() else text
        return Decision(self._acting(), "number", prompt, low=low, high=high,
                        facts=said if facts else None)

    def _facts_words(self, ask, facts) -> list[str]:
        """The facts a number question gives with it ('2 coins a gold', '14 coins left to
        pay'), each in its amount's words, else its phrase and value."""
        node = ask[1] if ask else None
        args = getattr(node, "args", None) or []
        if not facts or len(args) < 2 + len(facts):
            return []
        from ..lang import ast
        from ..lang.words import Ctx
        w, out = self.rs.words, []
        for expr, value in zip(args[2:], facts):
            try:
                text = w.amount(expr, str(value), value, Ctx(ask[2]))
                if text and isinstance(expr, ast.Call) and expr.func == "stock" and \
                        len(expr.args) < 2 and "player" not in expr.kwargs:
                    text = f"you have {text}"  # (a bare '31 gold' says not whose it is)
                if not text:  # its phrase, as written (not its value again), and the value
                    text = f"{w.expr(expr, Ctx())}: {value}"
            except Exception:  # words must never stop a game
                text = str(value)
            out.append(text)
        return out

    def choose_order(self, items: list) -> list:
        remaining, out = list(items), []
        while len(remaining) > 1:
            pick = self.choose_one(remaining, False, "Choose what comes next")
            remaining.remove(pick)
            out.append(pick)
        return out + remaining

    def choose_some(self, items: list, most: int, *facts: int) -> list:
        """Up to ``most`` of the items, each at most once, in the order the player picks them.

        One question per pick, listing every item left and then 'done' (as an
        optional choice lists 'none' last), so that every item is seen before the
        first pick and any agent, even one that always gives the same place, comes
        to an end (each pick leaves one item fewer). It stops by itself when
        ``most`` are picked or none is left."""
        what, self.choice_kind = self.choice_kind, ""
        ask, self.asking = self.asking, None
        where = self._prompt_later("")
        left, chosen = list(items), []
        kind = "card" if left and isinstance(left[0], CardRef) else "item"
        seat = self._acting()
        while left and len(chosen) < most:
            room = min(most - len(chosen), len(left))  # (no more than are left)

            def prompt(room=room, names=list(chosen)):
                names = [self._label(v, what) for v in names]
                so_far = f" more (chosen: {', '.join(names)})" if names else ""
                said = self._facts_words(ask, facts)
                return f"{_text(where)}Choose up to {room}{so_far} of " \
                    f"{self._items_words(items, ask)}" + (f" ({' · '.join(said)})"
                                                          if said else "")
            opts = [Option(partial(self._label, v, what), v, v if isinstance(v, str) else "")
                    for v in left] + [Option("done", None, "done")]
            i = self.decide(Decision(seat, kind, prompt, opts, some=room))
            if opts[i].value is None:
                break
            chosen.append(opts[i].value)
            left.remove(opts[i].value)
        return chosen

    def _items_words(self, items: list, ask) -> str:
        """What a set is chosen from, in words: the zone that holds every one of the cards
        ('your cards on offer'), else the call's list ('the players other than you')."""
        from ..lang import ast
        from ..lang.words import Ctx
        if items and all(isinstance(v, CardRef) for v in items):
            places = {(self.state.cards[v].zone, self.state.cards[v].zone_owner) for v in items}
            if len(places) == 1:
                zone, owner = places.pop()
                if owner == self._acting():
                    return f"your {self._zone_noun(zone)}"
                if owner is None or owner < 0:  # a shared place: 'the market'
                    return f"the {self._zone_noun(zone)}"
                return self.zone_words(zone, owner)  # "Ann's hand"
        node = ask[1] if ask else None
        if isinstance(node, ast.Call) and node.args:
            try:
                return self.rs.words.expr(node.args[0], Ctx(ask[2]))
            except Exception:  # words must never stop a game
                pass
        return "these"

    def choose_option(self, labels: list, probes: list) -> int:
        """'choose one': only the options that can be carried out are offered."""
        why = [self.why_not_effect(probe) for probe in probes]
        usable = [i for i, reason in enumerate(why) if reason is None]
        if not usable:
            raise ActionRefused("none of the options can be carried out: "
                                + " / ".join(_text(t) for t in labels))
        opts = [Option(labels[i], i) for i in usable]
        if len(usable) > 1 and all(self._idle(probes[i]) for i in usable):
            # a question whose every answer changes nothing is not asked (a removal
            # from any player, with nobody to take from): the first is taken, and said so
            if self.logging and not self.dry_run:
                who = self.state.players[self._acting()].name
                self.log(f"  {who} is not asked to choose: none of the options would "
                         "change anything")
            return opts[0].value

        def refused():
            return {_text(labels[i]): why[i] or "it cannot be carried out now"
                    for i in range(len(labels)) if i not in usable}
        i = self.decide(Decision(self._acting(), "option", self._prompt_later("choose one"),
                                 opts, refused_text=refused))
        return opts[i].value

    def confirm(self, label, about=()) -> bool:
        """'may': yes or no, the question saying what would be done (and to which cards)."""
        if not self.try_effect(lambda: None):
            return False
        seat = self._acting()
        cards = [c for c in about if isinstance(c, CardRef) and self.card_visible_to(c, seat)]
        prompt = self._prompt_later("")

        def question():
            text, where = _text(label), _text(prompt)
            return f"{where}{text[:1].upper()}{text[1:]}?" if where else \
                f"{text[:1].upper()}{text[1:]}?"
        i = self.decide(Decision(seat, "confirm", question,
                                 [Option("yes", True, "yes"), Option("no", False, "no")],
                                 about=cards))
        return i == 0

    def choose_from(self, noun: str, player) -> Any:
        self.choice_kind = "player" if noun in ("player", "opponent") else "space"
        if noun == "player":
            return self.choose_one(list(range(self.n)), False, "Choose a player", player)
        if noun == "opponent":
            return self.choose_one([p for p in range(self.n) if p != player], False,
                                   "Choose an opponent", player)
        if noun == "space":
            return self.choose_one(list(self.space_decl), False, "Choose a space", player)
        raise RuleRuntimeError(f"cannot choose any {noun}")

    def _idle(self, fn: Callable[[], Any]) -> bool:
        """Whether ``fn`` runs to the end asking nothing and leaves the game as it was;
        the state is left untouched."""
        questions = self.trial_questions
        same = []

        def compare(mark):  # after fn, before the rollback: the position now, and at the mark
            state = self.state
            same.append(not state.changed_since(mark) or state.as_at(mark).same_as(state))
        try:
            if self.why_not_effect(fn, compare) is not None:
                return False
            return self.trial_questions == questions and same[0]
        finally:
            self.trial_questions = questions

    def try_effect(self, fn: Callable[[], Any]) -> bool:
        """Whether ``fn`` can run to the end; the state is left untouched."""
        return self.why_not_effect(fn) is None

    def why_not_effect(self, fn: Callable[[], Any],
                       after: Callable[[Any], None] | None = None) -> str | None:
        """Why ``fn`` cannot run to the end (None: it can); the state is left untouched.
        ``after``, when ``fn`` ran to the end, is given the mark before it is rolled back."""
        snap = self.snapshot()
        record_len = len(self.record)
        self.dry_run += 1
        try:
            fn()
            if after is not None:
                after(snap)
            return None
        except RequirementFailed as exc:
            return exc.message
        except ActionRefused as exc:
            return exc.reason
        finally:
            self.dry_run -= 1
            self.restore(snap)
            del self.record[record_len:]
            del self.deciders[record_len:]
