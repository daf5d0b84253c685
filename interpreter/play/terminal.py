"""A person at a terminal, or a script of answers read like one: the terminal seat.

:class:`HumanAgent` shows a person what their seat may see before each
decision (the public log since their last one, their stocks, the shared
tracks), then the prompt and its numbered options; ``state``, ``card NAME``,
``log``, ``undo``, ``save`` and ``help`` may be typed at any prompt. It answers
decisions through the same interface as every agent.
"""

from __future__ import annotations

import time

from ..numtext import NumberProblem, whole
from ..safe_text import visible
from ..agents.base import Agent
from ..engine.decisions import Decision
from ..engine.keys import short_keys


class UndoRequest(Exception):
    """A person asked to go back to their previous decision (the game is replayed to it)."""

    def __init__(self, at: int):
        super().__init__(at)
        self.at = at  # the length of the record to replay


HELP = """commands at any prompt (help more: answers, picks, undo and typing):
  a number, key or words  answer (a key stays with its option; numbers move)
  pass                    end your turn, or decline (no, none)
  done                    end a pick of several (1 3 done)
  state [more]            everything you may see now [its next page]
  board / map             boards, tracks, shared rows and facts / the boards
  me / cards              your panel and cards / your cards in hand, with text
  players [more]          every player's panel side by side [its next page]
  standings               the goals players race for, with each value
  card NAME               the text of a card
  more N                  option N whole (an action: also what it does)
  next                    the next page of a list too long for the screen
  why                     the options not available now, and why
  news                    what changed since your last decision, all of it
  log [N]                 the last N lines of the game log (default 30)
  undo                    back to your previous decision
  save                    save the game and stop (also: quit)
  help [more]             this list [and the rest]"""

HELP_MORE = """answers: an option's number, the key beside it (it stays with its option;
numbers move), or the start of its words. pass ends your turn or declines.
A pick of several (1 3, then done; or 1 3 done) ends on done; it ends by itself
only when no more may be picked; pass does not end it.
undo goes back to your previous decision when nobody else has decided since and
nothing hidden or random has come out since (no card drawn, nothing shuffled).
Arrow keys edit the line and recall earlier answers; Tab completes commands,
keys, options and card names. What is typed before a question shows is ignored;
an answer after a question was taken for you that would have answered that one
is said back: Enter or typing it again takes it."""

# an answer that comes this soon (seconds) after a question that follows one taken for
# you was typed before the new question could be read: it may be meant for the taken one
TAKEN_GRACE = 1.5
_now = time.monotonic  # (a test sets its own clock here)


# commands that show one part of the view model (play/render.py draws it)
PARTS = {"board": "board", "map": "map", "me": "me", "cards": "cards", "players": "players",
         "standings": "standings"}


class HumanAgent(Agent):
    """A person at a terminal, or a script of answers: shows the state and numbered options.

    Before each decision a person sees what happened since their last one (the
    public log), a line with their own stocks and the shared tracks, then the
    prompt and its numbered options, each card with its text. ``state``,
    ``card NAME``, ``log``, ``undo`` and ``help`` may be typed at any prompt.

    With ``script`` (a :class:`~.transcript.ScriptReader`) the answers come
    from a file or a pipe: each answer is echoed after the prompt so the
    transcript shows what was chosen, and an answer the decision refuses
    stops the game with :class:`~.transcript.ScriptAnswerRefused` naming the
    script's line, instead of asking again.
    """

    name = "human"

    def __init__(self, console=None, input_fn=input, script=None):
        from rich.console import Console
        self.console = console or Console(highlight=False, emoji=False)
        self.input = input_fn
        self.script = script
        self.last_round = None
        self.seen = 0  # log lines already shown
        self.marks: list[tuple] = []  # (record length, rng state, reveals) at each answer
        self.helped = False
        self.last_news: list[list[str]] = []  # the news shown before this decision
        self._words = None  # (game, NewsWords): what the news summary knows of the game
        self.terminal = None  # a LineInput when a person types at a terminal (lineinput.py)
        self.announced: list[str] = []  # answers taken for this seat, shown when taken
        self.echoes: list[str] = []  # this person's own answers, as the log tells them
        # the rest of a set typed at once (each an option's value; None: 'done'), and the
        # seat it is for: the set's next questions are answered from it
        self.queued: list = []
        self.queued_for: int | None = None
        self.waiting = None  # the 'is thinking…' line of the agents (play/thinking.py)
        # the questions taken for this seat since its last answer: (the decision, its
        # keys, how many decisions the game had then); see _meant_for_taken
        self.skipped: list[tuple] = []
        # the page of a list of options too long for the screen ('next' turns it), and
        # how many pages the question's list has (screen.py: layout)
        self.page = 0
        self.pages = 1
        self.players_page = 0  # the page of 'players' shown last ('players more' turns it)
        self.state_page = 0  # the page of 'state' shown last ('state more' turns it)
        # the log line of the headline printed last by news(), while nothing but the line
        # of an answer taken for this seat has been printed under it (see news_groups)
        self.head_above: int | None = None
        # (log line, words, still above) of the last headline of the news: 'still above'
        # when it is the one right above on the screen, so not printed again
        self.last_head: tuple | None = None

    def show(self, decision, view, game, full: bool = False):
        """Print what a person sees before answering: news, status, the prompt, the options.

        The screen is laid out to fit a terminal (play/screen.py): the news
        folded into what changed (play/news.py), one line of your stocks and
        one of the shared tracks, the question, and the options whole when
        they fit, one a line when not."""
        from rich.text import Text
        from .render import render_view, status_lines, warning_lines
        from .screen import layout, option_lines, refused_lines
        from .transcript import option_rows
        c = self.console
        c.print()
        numbers = decision.kind == "number" and not decision.is_range  # a range's numbers left
        head = [Text(visible(decision.prompt), style="bold")]
        if decision.is_range:
            head.append(Text(f"  enter a number from {decision.low} to {decision.high}"))
        elif numbers:
            head.append(Text("  enter one of the numbers "
                             f"{', '.join(o.key for o in decision.options)}"))
        elif decision.some:
            head.append(Text(pick_words(decision), style="dim"))
        tail = []
        if not self.helped and self.script is None:
            tail.append(Text("  (a number or a key answers; type help for commands, save to "
                             "stop)", style="dim"))
            self.helped = True
        rows = option_rows(decision, game)
        if full:
            c.print(render_view(game.view_model(view["you"]), game))
            lines = head + option_lines(rows, c, False, numbers) + \
                refused_lines(rows, c.width, whole=True) + tail
        else:
            before = self.head_above
            news = self.news_groups(game, view["you"])
            # the last headline of the news, printed right above this question: what its
            # phase or move does after the answer goes on under it, not under the same
            # headline printed again (play 31: a phase's headline above the question and again
            # under the answer)
            last = self.last_head
            if last is not None and (last[2] or (news and news[-1][:1] == [last[1]])):
                self.head_above = last[0]
            elif not news:  # (shown again: 'next')
                self.head_above = before
            status = status_lines(view, game, c.width) + warning_lines(game, view["you"], c.width)
            paged: list[int] = []
            lines = layout(c, news, status, head, rows, numbers, tail,
                           you=game.state.players[view["you"]].name, page=self.page,
                           paged=paged)
            self.pages = paged[0] if paged else 1
        self.seen = len(game.log_lines)
        for line in lines:
            c.print(line)

    def news_groups(self, game, seat: int) -> list[list[str]]:
        """What changed since this person last looked, as their seat reads the log:
        each headline with its effects folded (play/news.py), kept for 'news'."""
        from .news import NewsWords, summarise
        lines = [game.log_line_for(i, seat) for i in range(self.seen, len(game.log_lines))]
        first = next((x for x in lines if x), "")
        above, self.head_above = self.head_above, None
        self.last_head = next(((self.seen + k, x, False)
                               for k, x in reversed(list(enumerate(lines)))
                               if x and not x.startswith(" ")), None)
        if first.startswith(" "):  # a move that went on after a question: under its headline
            for i in range(self.seen - 1, -1, -1):
                head = game.log_line_for(i, seat)
                if head and not head.startswith(" "):
                    if i != above:  # (not when it is right above, on the screen)
                        lines.insert(0, head)
                    if self.last_head is None:
                        self.last_head = (i, head, i == above)
                    break
        taken = set()  # answers taken for this seat: shown when taken, not again; read
        for line in [x for x in lines if x and x in self.announced]:  # still for what the
            self.announced.remove(line)  # headline says ('Hire a guide: Ada')
            taken.add(line.strip())
        if self._words is None or self._words[0] is not game:
            self._words = (game, NewsWords.of(game))
        fresh = []
        for group in summarise(lines, self._words[1]):
            group.effects = [e for e in group.effects if e.strip() not in taken]
            if group.headline is not None or group.effects:
                fresh.append(self._unechoed(group.lines()))
        self.last_news += fresh  # (since the last answer: 'news' shows it all)
        self.seen = len(game.log_lines)
        return fresh

    def _answered(self, decision, answer, game) -> None:
        """Remember how the log tells this person's answer to a question inside a move or
        a phase ('Ann chooses 1st'): they gave it, the news does not say it back."""
        if isinstance(answer, int) and not isinstance(answer, bool) and \
                not decision.is_range and decision.kind != "action" and \
                0 <= answer < len(decision.options):
            me = game.state.players[decision.player].name
            label = decision.options[answer].label
            self.echoes = self.echoes[-20:] + [f"  {me} chooses {label}",
                                               f"  {me} chooses: {label}"]

    def _unechoed(self, group: list[str]) -> list[str]:
        """A group of the news without this person's own answers said back under a phase
        (a move's headline names what its mover chose: it is kept there)."""
        head = group[0] if group and not group[0].startswith(" ") else None
        if head is not None and any(head.startswith(f"{n}: ") for n in self._words[1].players):
            return group
        out = []
        for line in group:
            if line in self.echoes:
                self.echoes.remove(line)
                continue
            out.append(line)
        return out

    def resumed(self, game, seen: int) -> None:
        """A resumed game reaches this seat: its news starts where this seat last
        answered (``seen`` log lines), as in a game played live. (After 'undo' the
        game is replayed too, and what was shown before stays shown.)"""
        self.seen = max(self.seen, seen)

    def news(self, game, seat: int, room: int | None = None) -> list:
        """Print what changed since this person last looked, folded; in ``room`` lines
        (the oldest left out, 'news' shows them) when given; the lines printed."""
        from rich.text import Text
        from .screen import fit_news, news_text
        groups = self.news_groups(game, seat)
        shown = fit_news(self.console, groups, room, game.state.players[seat].name) \
            if room is not None else [news_text(line, self.console.width)
                                      for group in groups for line in group]
        for line in shown:
            self.console.print(line)
        return shown

    def taken(self, decision, game) -> None:
        """A question of this seat the engine answered by itself: shown now, in place,
        with its question (so nobody types an answer to it)."""
        from rich.text import Text
        from .screen import MIN_NEWS
        self._quiet()
        line = "  " + taken_words(decision)
        try:
            keys = None if decision.is_range else short_keys(game, decision)
        except Exception:  # pragma: no cover - (its words answer it then)
            keys = None
        self.skipped = self.skipped[-5:] + [(decision, keys, len(game.deciders))]
        # announced before the news is shown: the log may tell it already (then the
        # news would print it, and this line again), or later; either way, once
        self.announced = self.announced[-50:] + [line]
        if not self._news_fits(game, decision.player, MIN_NEWS):
            # more news than the few lines above a question taken for you: it waits for
            # the screen of the next question you answer, which has the room (a round's
            # scoring is news to every player, not '… 20 earlier lines' scrolled away)
            self.console.print(Text(visible(line), style="cyan"))
            return
        shown = self.news(game, decision.player, MIN_NEWS)  # what came before it
        self.console.print(Text(visible(line), style="cyan"))
        # the last headline on the screen now (printed, whole or cut from its effects, or
        # still above): what its move or phase does after this answer goes on under it,
        # not under the same headline again (play30: '· V. Prepare the next round' twice)
        # (a headline wrapped over lines is still the one printed: words7, a two-line
        # headline of a phase's effect was printed again on the next screen)
        head = self.last_head
        if head is not None and (head[2] or any(
                " ".join(t.plain.split()).startswith(" ".join(head[1].split()))
                for t in shown)):
            self.head_above = head[0]

    def _news_fits(self, game, seat: int, room: int) -> bool:
        """Whether the news since this seat last looked fits in ``room`` lines whole
        (nothing folded or left out); nothing is marked as seen."""
        from .screen import height, news_text
        kept = (self.seen, self.head_above, self.last_head, list(self.announced),
                list(self.echoes), len(self.last_news))
        try:
            groups = self.news_groups(game, seat)
            return height(self.console, [news_text(x, self.console.width)
                                         for g in groups for x in g]) <= room
        finally:
            (self.seen, self.head_above, self.last_head, self.announced, self.echoes,
             n) = kept
            del self.last_news[n:]

    def _quiet(self) -> None:
        """The agents' 'is thinking…' line erased before this seat prints."""
        if self.waiting is not None:
            self.waiting.done()

    def decide(self, decision, view, game):
        c = self.console
        self._quiet()
        if self.queued:
            answer = self._from_set(decision, game)
            if answer is not None:
                return answer
        self.page = 0
        self.show(decision, view, game)
        mark = (len(game.record), game.state.rng.getstate(), game.reveals)
        if self.terminal is not None:  # what was typed before this question: not for it
            ahead = self.terminal.discard_typed_ahead()
            if ahead:
                c.print(f"[yellow]  (typed before this question was shown, and ignored: "
                        f"{_shown(' / '.join(ahead.split()))})[/yellow]")
            self.terminal.words = lambda text: self.completions(text, decision, game)
        # taken for this seat just before this question, no other person deciding since
        # (an agent answers at once, with nothing to read: the questions taken before
        # and after its answer are in a row to the person, playtest 32)
        skipped = [s for s in self.skipped if all(
            d == decision.player or not _a_person(game.agents[d])
            for d in game.deciders[s[2]:])]
        self.skipped = []
        asked = _now()
        confirm = None  # (typed, its answer): an answer shown back, to be confirmed
        while True:
            if self.script is not None:
                c.print("> ", end="")  # a script's answer is echoed after it
            try:
                raw = self.input("> ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            if self.script is not None:
                c.print(_shown(raw))  # so the transcript shows what was answered
            if confirm is not None and raw in ("", confirm[0]):  # the answer shown back
                answer, problem = confirm[1], None
                self.marks.append(mark)
                self.last_news = []
                self._answered(decision, answer, game)
                return answer
            confirm = None
            if self.command(raw, decision, view, game):
                if raw.split()[0].lower() not in ("state", "next"):  # (they show it too)
                    c.print(f"[bold]{_shown(decision.prompt)}[/bold]")  # the question again
                continue
            answer, problem = self.parse(decision, raw, short_keys(game, decision),
                                         person=self.script is None)
            if problem is not None and decision.some and len(raw.replace(",", " ").split()) > 1:
                answer, problem = self._set_typed(decision, raw, game)
            if self.script is not None:
                from .transcript import ScriptAnswerRefused
                if problem is not None:
                    raise ScriptAnswerRefused(self.script.line, len(game.record) + 1,
                                              decision, raw, problem)
                if not decision.is_range:
                    c.print(f"  [dim]→ {_shown(decision.options[answer].label)}[/dim]")
            if problem is None and skipped and self.script is None:
                meant = self._meant_for_taken(raw, skipped, _now() - asked < TAKEN_GRACE)
                skipped = []  # (typed again, it answers)
                if meant:
                    here = str(answer) if decision.is_range else decision.options[answer].label
                    which = " or ".join(f"\"{_shown(m.prompt)}\"" for m in meant)
                    c.print(f"[yellow]  ({_shown(raw)} would answer this question with "
                            f"\"{_shown(here)}\"; it may have been meant for {which}, "
                            f"which {'was' if len(meant) == 1 else 'were'} taken for you: "
                            f"press Enter or type {_shown(raw)} again to take it, or type "
                            f"another answer)[/yellow]")
                    c.print(f"[bold]{_shown(decision.prompt)}[/bold]")
                    confirm = (raw, answer)
                    continue
            if problem is None:
                self.marks.append(mark)
                self.last_news = []
                self._answered(decision, answer, game)
                return answer
            if skipped and self.script is None:  # no answer here: was it one for a taken one?
                meant = self._meant_for_taken(raw, skipped, True)
                if meant:  # (play 33: a bare "no option matches 'jc'" after a taken hang)
                    which = " or ".join(f"\"{_shown(m.prompt)}\"" for m in meant)
                    problem += (f" here; it would have answered {which}, which "
                                f"{'was' if len(meant) == 1 else 'were'} taken for you")
            c.print(f"[red]{_shown(problem)}[/red]")

    def _meant_for_taken(self, raw: str, skipped: list[tuple], soon: bool):
        """The questions taken for this seat that ``raw`` would have answered (a list): a
        person who typed its answer after it was taken may have meant it for that one.

        Its very answer (the number of a range, an option's key or words) is meant for it
        however late it comes; the number 1 of a taken list (its one option's place)
        only when typed ``soon``, before the new question could be read: a 1 typed later
        is read as the new question's 1 (play 30: asked again three times in a game).
        Every question taken in a row that ``raw`` would have answered, in order (play
        32: three taken in a row, and the one meant was not the one named)."""
        meant = []
        for decision, keys, _ in skipped:
            index, problem = self.parse(decision, raw, keys, person=True)
            if problem is not None:
                continue
            if soon or decision.is_range or decision.kind == "number":
                meant.append(decision)
                continue
            # later, only its very key or words (not a number, nor the start of its words,
            # which the next question's options may share)
            said = raw.strip().lower()
            if not raw.isdigit() and (said == (keys[index] if keys else "").lower()
                                      or said == decision.options[index].label.lower()):
                meant.append(decision)
        return meant

    def _set_typed(self, decision, raw: str, game) -> tuple[int | None, str | None]:
        """Several picks of a set typed at once ('1 3 5', 'oa ic', '1 3 done'): the first
        is the answer, the rest answer the set's next questions. The set goes on after
        them (asked again, with what is chosen) until 'done' or until no more may be
        picked: the same rule as for one pick typed at a time."""
        shorts = short_keys(game, decision)
        picks = []
        for word in raw.replace(",", " ").split():
            i, problem = self.parse(decision, word, shorts, person=self.script is None)
            if problem is not None:
                return None, f"{word}: {problem}"
            if i in picks:
                return None, f"{word}: chosen twice"
            picks.append(i)
        values = [decision.options[i].value for i in picks]
        if None in values[:-1]:
            return None, "done comes last, after the cards you choose"
        chosen = [v for v in values if v is not None]
        if len(chosen) > decision.some:
            return None, (f"you may choose at most {decision.some} now; you named "
                          f"{len(chosen)}")
        # (no 'done' added: a pick ends on done, typed, or when no more can be picked)
        self.queued = values[1:]
        self.queued_for = decision.player
        return picks[0], None

    def _from_set(self, decision, game) -> int | None:
        """The next pick of a set typed at once, shown in place; None when this question
        is not that set's (what was typed is then forgotten)."""
        from rich.text import Text
        want = self.queued.pop(0)
        found = [i for i, o in enumerate(decision.options) if o.value == want] \
            if decision.some and decision.player == self.queued_for else []
        if not found:
            self.queued = []
            return None
        label = decision.options[found[0]].label
        self.console.print(Text(visible(f"  {decision.prompt} → {label}"), style="dim"))
        self.marks.append((len(game.record), game.state.rng.getstate(), game.reveals))
        return found[0]

    def command(self, raw: str, decision, view, game) -> bool:
        """Carry out an in-game command; False when the text is an answer."""
        from rich.text import Text
        c = self.console
        word, _, rest = raw.partition(" ")
        word = word.lower()
        if word in ("help", "?") and rest.strip().lower() in ("", "more"):
            c.print(Text(HELP_MORE if rest.strip() else HELP))
            return True
        if word == "news" and not rest:
            for line in [x for g in self.last_news for x in g] or ["nothing new"]:
                c.print(Text(visible(line)))
            return True
        if word == "more" and rest.strip().isdigit() and rest.strip().isascii():
            from .transcript import option_rows
            rows = [r for r in option_rows(decision, game) if r[0] not in ("--", "")]
            n = int(rest.strip())
            if 1 <= n <= len(rows):
                row = rows[n - 1]
                told = [str(row[-1])] if row[-1] else []
                action = getattr(decision.options[n - 1].value, "action", None)
                if isinstance(action, dict) and action.get("description"):
                    told.append(" ".join(str(action["description"]).split()))  # what it does
                c.print(Text(visible(f"{n}. {row[-2]}"), style="bold"))
                for line in told or ["(nothing more)"]:
                    c.print(Text(visible(f"   {line}")))
            else:
                c.print(f"[red]there is no option {n}: choose from 1 to {len(rows)}[/red]")
            return True
        if word == "state" and rest.strip().lower() in ("", "more"):
            # a screen at a time when the table is taller than the screen (words7: a table
            # of 26 lines), as 'players'; 'state more' the next page, the question under
            from rich.console import Group
            from .render import state_pages
            from .screen import HEIGHT
            if not rest.strip():  # the whole table with the options whole, when it fits
                with c.capture() as drawn:
                    self.show(decision, view, game, full=True)
                text = drawn.get()
                if text.count("\n") <= HEIGHT - 1:  # (and the input line under it)
                    c.file.write(text)
                    c.file.flush()
                    return True
            pages = state_pages(game.view_model(decision.player), game, c, HEIGHT - 3)
            self.state_page = (self.state_page + 1) % len(pages) if rest.strip() else 0
            c.print()
            c.print(Group(*pages[self.state_page]))
            c.print(f"[bold]{_shown(decision.prompt)}[/bold]")
            return True
        if word == "next" and not rest and self.pages > 1:  # the list's next page
            self.page = (self.page + 1) % self.pages
            self.show(decision, view, game)
            return True
        if word == "players" and rest.strip().lower() in ("", "more"):
            # a screen at a time, like help (playtest 32: 45 lines, the stocks scrolled
            # off); 'players more' turns to the next page, and from the last to the first
            from rich.console import Group
            from .render import players_pages
            from .screen import HEIGHT
            pages = players_pages(game.view_model(decision.player), game, c, HEIGHT - 2)
            self.players_page = (self.players_page + 1) % len(pages) if rest.strip() else 0
            c.print(Group(*pages[self.players_page]))
            return True
        if word in PARTS and not rest:
            from .render import render_view
            c.print(render_view(game.view_model(decision.player), game, (PARTS[word],)))
            return True
        if word == "log" and (not rest or rest.strip().isdigit()):
            try:  # the digits 0 to 9 ('log ²' is a number to nobody)
                n = whole(rest.strip(), "the number of lines", 0) if rest.strip() else 30
            except NumberProblem as exc:
                c.print(f"[red]{_shown(exc.message)}[/red]")
                return True
            total = len(game.log_lines)
            lines = [game.log_line_for(i, decision.player) for i in range(total)]
            for line in [x for x in lines if x][-n:]:
                c.print(Text(visible(line)))
            return True
        if word == "why" and not rest:
            from .transcript import option_rows
            rows = [(label, detail) for mark, _, label, detail in option_rows(decision, game)
                    if mark == "--"]
            if not rows:
                c.print("every option is available now")
            for label, detail in rows:
                c.print(f"  [dim] --  {_shown(label)} ({_shown(detail)})[/dim]")
            return True
        if word == "card" and rest.strip():
            for line in card_text_for(game, rest.strip(), decision.player).split("\n"):
                c.print(Text(visible(line)))
            return True
        if word == "undo" and not rest:
            problem = self.undo_problem(game)
            if problem:
                c.print(f"[red]undo is not possible now: {_shown(problem)}[/red]")
                return True
            at = self.marks.pop()[0]
            self.skipped = []
            raise UndoRequest(at)
        return False

    def completions(self, text: str, decision, game) -> list[str]:
        """What the line may become: commands, this decision's keys and options, and
        'card NAME' for the cards this seat may see (never another seat's hidden card)."""
        from .lineinput import completions
        from ..engine.state import CardRef
        seat = decision.player
        keys = short_keys(game, decision)
        labels = [] if decision.is_range else [o.label for o in decision.options]
        cards = sorted({game.card_name(CardRef(n)) for n in game.state.cards
                        if game.card_visible_to(CardRef(n), seat)})
        commands = ["help", "state", "card ", "log", "undo", "save", "quit", "pass", "why",
                    "next", "done", *PARTS]
        return completions(text, commands, keys, labels, cards)

    def undo_problem(self, game) -> str | None:
        if not self.marks:
            return "this is your first decision"
        at, rng, reveals = self.marks[-1]
        seat = game.deciders[at] if at < len(game.deciders) else None
        if any(s != seat for s in game.deciders[at:]):
            return "another player has decided since"
        if reveals != game.reveals or rng != game.state.rng.getstate():
            return "a hidden card or a random draw has come out since"
        return None

    @staticmethod
    def parse(decision: Decision, raw: str, shorts: list[str] | None = None,
              person: bool = False) -> tuple[int | None, str | None]:
        """The answer typed: a number, an option's short key (``shorts``), 'pass',
        an option's key or words; or why it is not one.

        For a ``person``, a number that is also another option's name (a space
        called '#37' while option 37 is another space) is not taken: it could be
        either, and the person is told both keys."""
        if not raw:
            return None, "type the number of your choice (or help)"
        if raw.lstrip("-").isdigit():
            if not raw.isascii():  # '²' or '٣': Python reads some of those, or fails
                return None, "write the number with the digits 0 to 9"
            try:
                n = whole(raw)
            except NumberProblem:  # more digits than any number of the game
                n = -10 ** 40 if raw.startswith("-") else 10 ** 40
            if decision.is_range:
                problem = decision.check(n)
                return (n, None) if problem is None else (None, problem)
            if decision.kind == "number":  # the numbers left of a range: typed as numbers
                keys = [o.key for o in decision.options]
                if str(n) in keys:
                    return keys.index(str(n)), None
                reason = decision.refused.get(str(n))
                if reason is not None:
                    return None, f"{n} is not allowed now: {reason}"
                return None, f"choose one of the numbers {', '.join(keys)}"
            if person:
                named = [i for i, o in enumerate(decision.options) if _number_named(o.label) == n]
                if named and named != [n - 1]:
                    return None, _which_number(decision, raw, n, named[0], shorts)
            if 1 <= n <= len(decision.options):
                return n - 1, None
            return None, f"choose a number from 1 to {len(decision.options)}"
        index, problem = decision.find(raw, shorts if shorts is not None else [])
        return index, problem

    def refused(self, decision, reason):
        self._quiet()
        self.console.print(f"[red]{_shown(reason)}[/red]")

    def action_failed(self, label, reason):
        self._quiet()
        self.console.print(f"[red]{_shown(label)} could not be done: {_shown(reason)}. "
                           "Choose again.[/red]")


def _a_person(agent) -> bool:
    """Whether a seat's agent is a person at this terminal (a seat resumed from a record
    is its live agent's)."""
    return isinstance(getattr(agent, "live", agent), HumanAgent)


def pick_words(decision) -> str:
    """How a pick of a set ends, said under its question: on 'done', or by itself when no
    more may be picked (the one rule, whether the picks are typed one at a time or
    several at once)."""
    left = min(decision.some, sum(1 for o in decision.options if o.value is not None))
    if left <= 1:
        return "  the last you may pick: it ends the pick; done ends it without one"
    return f"  several at once: 1 3; type done to finish (it ends by itself after {left} more)"


def taken_words(decision) -> str:
    """A question the engine answered by itself for a person, as shown to them in place
    (the terminal and the web page): the question, its one answer, and why."""
    answer = str(decision.low) if decision.is_range else decision.options[0].label
    return f"{decision.prompt} → {answer} (the only choice, taken for you)"


def _number_named(label: str) -> int | None:
    """The number an option is called by ('#37', '37'), if it is called by one."""
    import re
    m = re.fullmatch(r"#?\s*(\d{1,9})", label.strip())
    return int(m.group(1)) if m else None


def _which_number(decision: Decision, raw: str, n: int, named: int,
                  shorts: list[str] | None) -> str:
    """Why a number that is both an option's place and another option's name is
    not taken, with the keys that say which."""
    def key(i: int) -> str:
        return shorts[i] if shorts else decision.options[i].label
    other = decision.options[named]
    if 1 <= n <= len(decision.options):
        here = decision.options[n - 1]
        return (f"'{raw}' could be option {n} ({here.label}) or {other.label} (option "
                f"{named + 1}): type its key, {key(n - 1)} or {key(named)}")
    return (f"there is no option {n}; {other.label} is option {named + 1}: type "
            f"{key(named)} or {named + 1}")


def card_text_for(game, name: str, seat: int | None = None) -> str:
    """'card NAME': the card's facts and text (any card of the game; texts are public),
    with what it costs ``seat`` now when a discount applies."""
    from ..lang.words import catalogue_entry, facts_line
    from ..errors import suggest
    rs = game.rs
    by_name = {str(e.data.get("name", cid)).lower(): cid for cid, e in rs.cards.items()}
    cid = by_name.get(name.lower()) or (name if name in rs.cards else None)
    if cid is None:
        matches = [n for n in by_name if n.startswith(name.lower())]
        if not matches and name.strip():  # 'River Kingdom': 'The River Kingdom'
            matches = [n for n in by_name if f" {name.lower()}" in f" {n}"]
        if len(matches) == 1:
            cid = by_name[matches[0]]
    if cid is None:
        hint = suggest(name.lower(), list(by_name))
        if hint:  # the names as the game writes them, not lower-cased
            written = {str(e.data.get("name", c)).lower(): str(e.data.get("name", c))
                       for c, e in rs.cards.items()}
            for low in sorted(written, key=len, reverse=True):
                hint = hint.replace(f"'{low}'", f"'{written[low]}'")
        return f"no card is called '{name}'" + (f"; {hint}" if hint else "")
    entry = catalogue_entry(rs, cid)
    price = None
    if seat is not None and entry.get("cost") is not None:
        copy = next((c for c, s in game.state.cards.items() if s.def_id == cid), None)
        price = game.card_price(copy, seat) if copy is not None else None
    facts = facts_line(entry, price)
    return "\n".join([entry["name"] + (f" ({facts})" if facts else "")]
                     + [f"  {line}" for line in entry["lines"]])


def _shown(text: str) -> str:
    """Rule-file text for a prompt: escapes made visible, then kept out of rich markup."""
    from rich.markup import escape
    return escape(visible(text))
