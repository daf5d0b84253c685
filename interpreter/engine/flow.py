"""The flow runner: setup, rounds, phases, turns and actions, then final scoring.

Everything here is generic: the ruleset's flow declares the phases and how
turns go (a fixed number of actions per turn, action rounds with passing, or
simultaneous turns), and the effects do the rest. Each player's action choice
is a Decision; an action that turns out impossible while it runs is rolled
back and refused with its reason.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from dataclasses import dataclass, field

from ..lang.gensupport import reading
from ..lang.runtime import RequirementFailed, RuleRuntimeError
from ..lang.words import told
from .decisions import ActionRefused, Decision, Option, Options
from .game import NO_OWNER, Game
from .menus import ActionChoice, Unlisted, menu_for
from .state import MAX_ROUNDS
MAX_ACTIONS_PER_TURN = 500  # free or refused actions in a turn, past those it counts
MAX_TURN_CYCLES = 2000


@dataclass
class Result:
    scores: list[int]
    breakdown: list[dict]
    winners: list[int]
    rounds: int
    decisions: int
    final_hash: str
    solo_won: bool | None = None
    tie_values: list[list[int]] = field(default_factory=list)
    ranks: list[str | None] = field(default_factory=list)
    finished: bool = True
    score_parts: list[dict] = field(default_factory=list)  # per seat: scoring entry id -> points


def deciding_tie_breaks(rs, result: Result) -> list[tuple[str, list[int]]]:
    """The tie-breaks a game's end needed, as (what it is called, each seat's value), in
    order: none when the best score is not shared, else each tie-break until the seats
    still tied at the top are told apart (all of them when they never are). A tie-break
    is called by its declared ``name``, else by the words of its expression."""
    if not result.finished or len(result.scores) < 2 or not result.tie_values:
        return []
    flow = {k: e.data for k, e in rs.singles.items()}
    lowest = (flow.get("end") or {}).get("winner") == "lowest"
    best = (min if lowest else max)(result.scores)
    tied = [s for s, score in enumerate(result.scores) if score == best]
    out = []
    declared = flow.get("tie_breaks") or []
    for i, item in enumerate(declared):
        if len(tied) < 2:
            break
        values = [result.tie_values[s][i] for s in range(len(result.scores))]
        if isinstance(item, dict) and item.get("name"):
            label = str(item["name"])
        else:
            tree = rs.asts.get(("flow", "tie_break", i))
            words = rs.words.expr(tree) if tree is not None else f"tie-break {i + 1}"
            words = words.removeprefix("your ")
            label = words[:1].upper() + words[1:]
        out.append((label, values))
        top = max(values[s] for s in tied)
        tied = [s for s in tied if values[s] == top]
    return out


@dataclass
class Cursor:
    """A place in the flow to pick up from (scenarios run the flow from a built position).

    ``stage`` is "start" (the phase starts: its condition, its do, its turns),
    "turns" (its turns, from the seat at ``seat_index`` of the phase's order,
    in pass ``repeat`` of a fixed phase), "after" (its after part) or "next"
    (the phase is over). "round_over" is the end of round ``round``; ``ended``
    says the game ends there.
    """

    round: int
    phase: str | None = None
    stage: str = "start"
    seat_index: int = 0
    repeat: int = 0
    ended: bool = False


class StopFlow(Exception):
    """Raised at a point the flow was asked to stop at; ``cursor`` is where it goes on."""

    def __init__(self, cursor: Cursor):
        super().__init__("the flow stopped")
        self.cursor = cursor


class FlowRunner:
    def __init__(self, game: Game):
        self.game = game
        self.rs = game.rs
        self.flow = {k: e.data for k, e in self.rs.singles.items()}
        # stop_at(kind, name) -> bool: asked at the end of each turn ("turn", seat), phase
        # ("phase", id) and round ("round", number); True stops the flow there (StopFlow)
        self.stop_at = None
        self.kept = 64  # how many counts of turns and rounds may pile up (see forget)

    def _mark(self, kind: str, name, cursor: Cursor) -> None:
        if self.stop_at is not None and not self.game.state.over and self.stop_at(kind, name):
            raise StopFlow(cursor)

    # ------------------------------------------------------------ the game
    def play(self, cursor: Cursor | None = None) -> Result:
        """Play the game from its setup, or from ``cursor`` on, to the final scoring."""
        g = self.game
        first = 1
        if cursor is None:
            g.state.set_attr("phase", "setup")
            self.rule(("flow", "setup"))
            if g.check_actions:
                from .invariants import check_invariants
                check_invariants(g)  # the position every later check is compared with
        elif cursor.stage == "round_over":
            first, cursor = cursor.round + 1, None if not cursor.ended else cursor
        else:
            first = cursor.round
        rounds = self.flow.get("rounds", {"count": 1})
        limit = rounds.get("count") or rounds.get("max") or MAX_ROUNDS
        numbers = [] if cursor is not None and cursor.ended else \
            range(first, min(limit, MAX_ROUNDS) + 1)
        phases = list(self.rs.sections["phases"].items())
        for number in numbers:
            resume = cursor if cursor is not None and number == cursor.round else None
            if resume is None:
                g.state.set_attr("round", number)
                g.state.set_attr("passed", set())
                self.forget("round")
                g.log(f"— {rounds.get('name', 'Round')} {number} —")
            skipping = resume is not None
            for pid, entry in phases:
                if g.state.over:
                    break
                if skipping:
                    if pid != resume.phase:
                        continue
                    skipping = False
                    if resume.stage == "next":
                        continue
                    self.phase(pid, entry.data, resume)
                else:
                    self.phase(pid, entry.data)
                self._mark("phase", pid, Cursor(number, pid, "next"))
            if g.state.over:
                break
            ended = number >= min(limit, MAX_ROUNDS) or "until" in rounds and bool(
                g.run_code(("flow", "rounds", "until"), g.frame(None)))
            self._mark("round", number, Cursor(number, None, "round_over", ended=ended))
            if ended:
                break
        g.state.set_attr("phase", "end")
        g.log("— End of the game —")
        self.rule(("flow", "end", "then"))
        self.end_rewards()
        g.ended = True
        if g.check_actions or g.check_invariants:
            from .invariants import check_invariants
            check_invariants(g)  # the final position, fully
        result = self.score()
        self.tell_scores(result)
        return result

    def tell_scores(self, result: Result) -> None:
        """The final scoring, told: 'Player 1: 1 point (Gold 1)', each category named
        before its points, as the score panel and the final table name them (the
        number counts points, not what the category is called after)."""
        g = self.game
        for seat, parts in enumerate(result.breakdown):
            total = result.scores[seat]
            reasons = ", ".join(f"{k} {v}" for k, v in parts.items() if v)
            g.log(f"  {g.state.players[seat].name}: {total} point{'' if total == 1 else 's'}"
                  + (f" ({reasons})" if reasons else ""))

    def end_rewards(self) -> None:
        """Track rewards marked 'when: end' go to every player who reached them."""
        g = self.game
        for tid, decl in g.track_decl.items():
            for i, reward in enumerate(decl.get("rewards", []) or []):
                if reward.get("when") != "end":
                    continue
                for seat in g.state.turn_order:
                    value = (g.state.players[seat].tracks[tid] if decl.get("scope") == "player"
                             else g.state.tracks[tid])
                    reached = value >= reward["at"] if decl.get("step", 1) > 0 else False
                    if not reached or reward.get("once") and (tid, i) in g.state.claimed:
                        continue
                    if reward.get("once"):
                        g.state.add_to("claimed", (tid, i))
                    g.run_code(("track", tid, "reward", i), g.frame(seat))

    def phase(self, pid: str, data: dict, resume: Cursor | None = None) -> None:
        g = self.game
        g.state.set_attr("phase", pid)
        stage = resume.stage if resume is not None else "start"
        if stage == "start":
            cond = self.rs.code.get(("phase", pid, "if"))
            if cond is not None and not cond(g.frame(None)):
                return
            g.log(f"· {g.phase_name(pid)}")
            self.rule(("phase", pid, "do"))
        turns = data.get("turns")
        if turns and stage in ("start", "turns"):
            self.turns(pid, turns, resume if stage == "turns" else None)
            if turns.get("style") == "simultaneous":  # everyone's turn ends together
                self._mark("turn", None, Cursor(g.state.round, pid, "after"))
        # its own heading, not folded into the last action's: '· End of the round'
        g.log_heading(f"· {data.get('after_name') or 'End of ' + g.phase_name(pid)}")
        self.rule(("phase", pid, "after"))
        g.log_heading(None)

    def rule(self, key: tuple) -> None:
        """Run one of the flow's own rules (a phase's do or after, the setup, the end's
        then), outside any action. When a seat's agent searches the choices such a rule
        asks (``searches_rules``), the game keeps the position before it
        (``Game.rule_start``), so a search can run the rule again on a copy with the
        answers given in it so far; else nothing is kept (a copy of the state costs)."""
        g = self.game
        if key not in self.rs.code:
            return
        saved = g.rule_start
        if any(getattr(a, "searches_rules", False) for a in g.agents):
            g.rule_start = (g.state.clone(), len(g.record), key)
        else:
            g.rule_start = None
        try:
            g.run_code(key, g.frame(None))
        finally:
            g.rule_start = saved

    def order(self, turns: dict) -> list[int]:
        if turns.get("order") == "seat":
            return list(range(self.game.n))
        return list(self.game.state.turn_order)

    def turns(self, pid: str, turns: dict, resume: Cursor | None = None) -> None:
        g = self.game
        style = turns.get("style", "fixed")
        actions = int(turns.get("actions", 1))
        start = resume.seat_index if resume is not None else 0
        if style == "action_rounds":
            if resume is None:
                g.state.set_attr("passed", set())
            for _ in range(MAX_TURN_CYCLES):
                if len(g.state.passed) >= g.n or g.state.over:
                    break
                order = self.order(turns)
                for index in range(start, len(order)):
                    seat = order[index]
                    if g.state.over or seat in g.state.passed:
                        continue
                    alone = len(g.state.passed) == g.n - 1
                    g.after_turn = Cursor(g.state.round, pid, "turns", index + 1)
                    self.turn(pid, seat, BIG_TURN if alone else actions,
                              int(turns.get("min_actions", 1)), turns, may_pass=True)
                    self._mark("turn", seat, Cursor(g.state.round, pid, "turns", index + 1))
                start = 0
            else:
                raise RuleRuntimeError(f"phase '{pid}': players were still taking turns after "
                                       f"{MAX_TURN_CYCLES} rounds of turns")
            return
        required = int(turns.get("min_actions", actions))
        if style == "simultaneous":
            self.simultaneous(pid, turns, actions, required)
            return
        first = resume.repeat if resume is not None else 0
        for again in range(first, int(turns.get("repeat", 1))):
            order = self.order(turns)
            for index in range(start if again == first else 0, len(order)):
                if g.state.over:
                    return
                seat = order[index]
                g.after_turn = Cursor(g.state.round, pid, "turns", index + 1, again)
                g.state.set_attr("turn_round",
                                 again + 1 if int(turns.get("repeat", 1)) > 1 else 0)
                self.turn(pid, seat, actions, required, turns, may_pass=False)
                self._mark("turn", seat, Cursor(g.state.round, pid, "turns", index + 1, again))
        g.state.set_attr("turn_round", 0)

    # ------------------------------------------------------------- a turn
    def turn(self, pid: str, seat: int, actions: int, required: int, turns: dict,
             may_pass: bool) -> None:
        g = self.game
        budget = g.budget  # a turn is a step: a flow that turns without asking runs out
        budget.used += 1
        if budget.used > budget.limit:
            raise budget.exceeded(self._turns_span(pid))
        self.forget("turn")
        g.state.set_attr("turn_seat", seat)
        g.state.set_attr("turn_number", g.state.turn_number + 1)
        taken = 0
        g.refusals.forget()  # (a new position: what was refused before no longer applies)
        for _ in range(actions + MAX_ACTIONS_PER_TURN):
            if g.state.over:
                break
            pick = self.choose(pid, seat, taken, actions, required, turns, may_pass)
            if pick.key == "end":
                break
            if pick.key == "pass":
                g.state.add_to("passed", seat)
                g.log(f"{g.state.players[seat].name} passes")
                break
            if self.perform(pick, seat) and not (pick.action or {}).get("free"):
                taken += 1
        else:
            raise self._endless_turn(pid)
        g.refusals.forget()
        g.state.set_attr("turn_seat", NO_OWNER)
        g.after_turn = None

    def _endless_turn(self, pid: str) -> RuleRuntimeError:
        """A turn that goes on past any real game's: said, never cut short in silence."""
        return RuleRuntimeError(f"phase '{pid}': a turn went on for {MAX_ACTIONS_PER_TURN} "
                                "actions past those it counts and was not over; the rules "
                                "may let a player act for ever (free actions that never run "
                                "out?)",
                                self._turns_span(pid))

    def _turns_span(self, pid: str):
        """Where a phase's turns are declared: the flow's own work is reported there."""
        entry = self.rs.sections["phases"].get(pid)
        return entry.span("turns") if entry is not None else self.game.budget.where

    def forget(self, scope: str) -> None:
        """A new round or turn: what was counted for the ones before is never read again.

        Events counted per round or turn and actions used once per round or turn
        are dropped once their round or turn is over (those of turns in batches,
        whenever they have doubled), so a long game's state, copied before every
        action, does not grow with every turn it has had."""
        st = self.game.state
        size = len(st.history) + len(st.used)
        if scope == "turn" and size <= self.kept:
            return  # dropped once they have doubled: the work stays in step with the turns
        old = ("round", "turn") if scope == "round" else ("turn",)
        if any(k[2] in old for k in st.history):
            st.history = Counter({k: v for k, v in st.history.items() if k[2] not in old})
        if any(k[2][0] in old for k in st.used):
            st.used = {k for k in st.used if k[2][0] not in old}
        self.kept = 2 * (len(st.history) + len(st.used)) + 64

    def choose(self, pid: str, seat: int, taken: int, actions: int, required: int,
               turns: dict, may_pass: bool) -> ActionChoice:
        """Ask the seat for its next action; 'end' or 'pass' when the turn is over.

        A seat with nothing left to do is not asked: it ends (or, before a first
        action of an action round, passes), and the log says so when actions were
        left (playtest 32: a turn ended by itself read as if it had not ended)."""
        decision, opts = self.action_decision(pid, seat, taken, actions, required, turns,
                                              may_pass)
        if decision is None:  # nothing at all can be done
            g = self.game
            if taken < actions and g.logging:
                label = opts[0].label
                name = g.state.players[seat].name
                # the reason once until the seat chooses again (words7: a turn ended by
                # itself, then the pass that followed, each said 'nothing else can be
                # done', about 20 times a game)
                told = g.told_stuck.get(seat)
                if told is not None and seat not in g.deciders[told:]:
                    line = f"{name}: {label}"
                else:
                    said = f"{label[:-1]}; " if label.endswith(")") else f"{label} ("
                    line = f"{name}: {said}nothing else can be done)"
                    g.told_stuck[seat] = len(g.deciders)
                # (to the seat alone: in a simultaneous step the others have yet to
                # commit, and what could not be done may hang on hidden cards)
                g.log("", {seat: line})
            return opts[0]
        return opts[self.game.decide(decision)]

    def action_decision(self, pid: str, seat: int, taken: int, actions: int, required: int,
                        turns: dict, may_pass: bool) -> tuple[Decision | None, list]:
        """The seat's choice of action now, and what each option stands for.

        The decision is None when only ending the turn (or passing) is left."""
        g = self.game
        choices, refused = self.menu(pid, seat, turns, main_left=taken < actions)
        opts = list(choices.values())
        main_possible = False  # (a loop, not any() over a generator: once a menu)
        for o in opts:
            if not (o.action or _NO_ACTION).get("free"):
                main_possible = True
                break
        if may_pass and taken == 0:
            # before a first action, passing is the only way out of an action round
            opts.append(ActionChoice("pass", f"pass (no more turns this {g.rs.words.rounds})"))
        elif taken >= required or not main_possible:
            opts.append(ActionChoice("end", "end turn"))
        if len(opts) == 1 and opts[0].key in ("end", "pass"):
            return None, opts
        if turns.get("count") is False:  # something else limits the turn: no count
            count = ""
        elif actions >= BIG_TURN:
            count = f" ({taken} taken this turn)" if taken else ""
        elif actions > 1 and taken < actions:
            count = f" (action {taken + 1} of {actions})"
        elif taken >= actions:  # what is left are free actions
            count = f" (your {actions} action{'s' if actions != 1 else ''} are taken; " \
                    f"free actions only)" if actions > 1 else " (free actions only)"
        else:
            count = ""
        name = g.state.players[seat].name
        # the words (the options', the refusals', the question's) are made when read
        decision = Decision(seat, "action", partial(_action_prompt, name, count),
                            Options(tuple(opts), _action_option),
                            refused_text=partial(_refused_words, refused) if refused else {})
        if len(opts) == 1 and menu_for(self.rs, pid, turns).only_one():
            decision.tell_alone = False  # (the phase has no other action: nothing was chosen)
        return decision, opts

    def simultaneous(self, pid: str, turns: dict, actions: int, required: int) -> None:
        """Everyone chooses at once, then the choices resolve in turn order.

        In each step every player still in the phase commits to one action
        while seeing the same position (nobody sees the others' choices), then
        the committed actions are carried out in turn order. An action that has
        become impossible by then is refused with its reason and that player
        chooses again from the new position. A player who ends is out of the
        phase; the phase ends when everyone has.
        """
        g = self.game
        g.after_turn = None  # (a copy cannot be played on from inside one)
        order = self.order(turns)
        taken = {seat: 0 for seat in order}
        numbers = {}
        for seat in order:  # each player's part of the phase is one turn
            g.state.set_attr("turn_number", g.state.turn_number + 1)
            numbers[seat] = g.state.turn_number
        done: set[int] = set()
        for _ in range(actions + MAX_ACTIONS_PER_TURN):
            if g.state.over or len(done) == len(order):
                break
            committed = []
            for seat in order:
                if seat in done:
                    continue
                g.state.set_attr("turn_seat", seat)
                g.state.set_attr("turn_number", numbers[seat])
                pick = self.choose(pid, seat, taken[seat], actions, required, turns, False)
                if pick.key == "end":
                    done.add(seat)
                else:
                    committed.append((seat, pick))
            for seat, pick in committed:
                g.state.set_attr("turn_seat", seat)
                g.state.set_attr("turn_number", numbers[seat])
                for _ in range(MAX_ACTIONS_PER_TURN):
                    if g.state.over:
                        break
                    if self.resolve(pick, seat):
                        if not (pick.action or {}).get("free"):
                            taken[seat] += 1
                        break
                    pick = self.choose(pid, seat, taken[seat], actions, required, turns, False)
                    if pick.key == "end":
                        done.add(seat)
                        break
                else:
                    raise self._endless_turn(pid)
                g.refusals.forget()  # the next seat's action starts from another position
        else:
            raise self._endless_turn(pid)
        g.state.set_attr("turn_seat", NO_OWNER)

    def resolve(self, pick: ActionChoice, seat: int) -> bool:
        """Carry out an action chosen earlier, if it is still allowed now."""
        g = self.game
        reason = self.blocked(self._code_key(pick), pick.action, seat, pick.card, pick.use_key,
                              pick.bind)
        if reason is not None:
            return self._refused(pick, seat, reason if isinstance(reason, str) else reason())
        return self.perform(pick, seat)

    def _refused(self, pick: ActionChoice, seat: int, reason: str) -> bool:
        """Tell the player (and only them: a refused move is nobody else's news, and
        may show what they hold) why an action could not be done."""
        g = self.game
        g.log("", {seat: f"{g.state.players[seat].name}: {pick.label}"})
        g.log("", {seat: f"  refused: {reason}"})
        agent = g.agents[seat]
        if hasattr(agent, "action_failed"):
            agent.action_failed(pick.label, reason)
        return False

    def available(self, pid: str, seat: int, turns: dict, main_left: bool) -> dict:
        """The actions this seat may choose now, and the refused ones with reasons (under
        "__refused__": label -> reason)."""
        out, refused = self.menu(pid, seat, turns, main_left)
        out["__refused__"] = _refused_words(refused, unlisted=True)
        return out

    def menu(self, pid: str, seat: int, turns: dict, main_left: bool) -> tuple[dict, list]:
        """The actions this seat may choose now (key -> choice), and the refused ones as
        (choice, reason) pairs: no label is made until someone reads it."""
        with reading(self.game):  # conditions only read: what they share is worked out once
            return self._available(pid, seat, turns, main_left)

    def _available(self, pid: str, seat: int, turns: dict, main_left: bool) -> tuple:
        # the declarations are read once per phase, the cards with actions indexed
        return menu_for(self.rs, pid, turns).offer(self, pid, seat, main_left)

    def _frame(self, seat: int, card, bind: tuple | None):
        g = self.game
        f = g.frame(seat, this=card) if card is not None else g.frame(seat)
        if bind is not None:
            f.vars[bind[0]] = bind[1]
        return f

    def blocked(self, key: tuple, action: dict, seat: int, card, use_key: str,
                bind: tuple | None = None) -> str | None:
        g = self.game
        once = action.get("once_per", "round" if card is not None else "any")
        if once != "any" and (use_key, seat, self._scope(once)) in g.state.used:
            period = once
            if once == "round":  # in the words of the ruleset's rounds.name
                period = str((self.flow.get("rounds") or {}).get("name", "round")).lower()
            return f"already used this {period}"
        cond = self.rs.code.get(key + ("if",))
        if cond is not None:
            f = self._frame(seat, card, bind)
            if not cond(f):
                if action.get("reason"):
                    return str(action["reason"])
                explain = self.rs.explainer(key + ("if",))
                return lambda: explain(f)  # words are made only if someone reads them
        implied = self.rs.implied.get(key) if self.rs.implied else None
        if implied is not None:  # what its first statements need (lang/implied.py)
            return g.implied_refusal(implied, seat, card, self._frame(seat, card, bind)
                                     if bind is not None else None)
        return None

    def _code_key(self, pick: ActionChoice) -> tuple:
        if pick.card is None:
            return ("action", pick.key.split(":")[1])
        return ("card", self.game.state.cards[pick.card].def_id, "action", pick.index)

    def _scope(self, once: str):
        st = self.game.state
        return {"round": ("round", st.round), "turn": ("turn", st.turn_number),
                "game": ("game", 0)}[once]

    def perform(self, pick: ActionChoice, seat: int) -> bool:
        """Run an action; on failure roll back, tell the agent why, and return False."""
        g = self.game
        snap = g.snapshot()
        key = self._code_key(pick) + ("do",)
        g.context = pick  # (its label, for prompts, made when one is read)
        g.hand_prompt = (pick.action or {}).get("prompt")  # for its first question
        g.showing = g.alongside_of.get(pick.key.split(":")[1]) if g.alongside_of \
            and pick.key.startswith("action:") else None
        g.hold_log()  # what the action did is told once it has succeeded (a refused one
        if g.logging:  # is not: _refused)
            name, said = g.state.players[seat].name, told(pick.label)
            # the mover reads their own move as they chose it ('Move your token'), the
            # others as told ('Move their token')
            g.log(f"{name}: {said}", {seat: f"{name}: {pick.label}"}
                  if said != pick.label else None)
        # for a search asked inside the action: the position it started from, how many
        # answers the record held then, and the action (the copy replays from there)
        g.action_start = (snap, len(g.record), pick, seat)
        g.refusals.begin(seat, pick.key)  # its answers, remembered if it is refused
        try:
            g.run_code(key, self._frame(seat, pick.card, pick.bind))
        except (RequirementFailed, ActionRefused) as exc:
            g.action_start = None
            g.restore(snap)
            g.release_log(keep=False)
            g.context, g.hand_prompt, g.showing = "", None, None
            reason = getattr(exc, "message", None) or getattr(exc, "reason", str(exc))
            # not offered again at this position, nor what a trial shows can only fail
            g.refusals.refuse(reason, g.answer_trials(
                lambda: g.run_code(key, self._frame(seat, pick.card, pick.bind))))
            return self._refused(pick, seat, reason)
        except BaseException:
            g.action_start = None
            g.refusals.end()
            g.release_log(keep=True)  # stopped for another reason: lose no line
            g.keep(snap, stopped=True)  # (whoever stopped it may roll back further)
            raise
        g.action_start = None
        g.keep(snap)  # what the action did stays
        g.refusals.forget()  # the position has moved on
        g.release_log(keep=True)
        g.context, g.hand_prompt, g.showing = "", None, None
        if pick.card is None:
            g.state.count("tally", ("action", seat, pick.key.split(":")[1]))
        else:
            g.state.count("tally", ("card_action", seat, g.state.cards[pick.card].def_id))
        if g.check_actions:
            from .invariants import check_changes
            check_changes(g)  # (only what the action changed)
        once = pick.action.get("once_per", "round" if pick.card is not None else "any")
        if once != "any":
            g.state.add_to("used", (pick.use_key, seat, self._scope(once)))
        return True

    # ----------------------------------------------------------- scoring
    def score_of(self, seat: int) -> tuple[int, dict]:
        """The seat's total and its points by scoring entry id."""
        g = self.game
        parts = {}
        for sid in self.rs.sections["scoring"]:
            parts[sid] = g.run_code(("scoring", sid), g.frame(seat))
        return sum(parts.values()), parts

    def evaluate(self, seat: int) -> int:
        g = self.game
        if ("flow", "evaluation") in self.rs.code:
            return g.run_code(("flow", "evaluation"), g.frame(seat))
        return self.score_of(seat)[0]

    def score(self) -> Result:
        g = self.game
        scores, breakdown, by_id = [], [], []
        names = {sid: e.data.get("name", sid) for sid, e in self.rs.sections["scoring"].items()}
        for seat in range(g.n):
            total, parts = self.score_of(seat)
            scores.append(total)
            by_id.append(parts)
            breakdown.append({names[sid]: points for sid, points in parts.items()})
        ties = [[g.run_code(("flow", "tie_break", i), g.frame(seat))
                 for i in range(len(self.flow.get("tie_breaks", []) or []))]
                for seat in range(g.n)]
        lowest = (self.flow.get("end") or {}).get("winner") == "lowest"
        keyed = [((-s if lowest else s), *ties[seat]) for seat, s in enumerate(scores)]
        best = max(keyed)
        winners = [seat for seat in range(g.n) if keyed[seat] == best]
        solo = None
        if g.n == 1 and ("flow", "end", "solo_win") in self.rs.code:
            solo = bool(g.run_code(("flow", "end", "solo_win"), g.frame(0)))
            if not solo:
                winners = []
        ranks = []
        for seat, total in enumerate(scores):
            earned = None
            for i, rank in enumerate((self.flow.get("end") or {}).get("ranks", []) or []):
                cond = self.rs.code.get(("flow", "end", "rank", i))
                if total >= rank["at"] and (cond is None or cond(g.frame(seat))):
                    earned = rank["name"]
            ranks.append(earned)
        finished = True
        if ("flow", "end", "finished") in self.rs.code:
            finished = bool(g.run_code(("flow", "end", "finished"), g.frame(None)))
        if not finished:
            winners = []  # a game stopped short of its end has scores but no winner
        return Result(scores, breakdown, winners, g.state.round, len(g.record),
                      g.state.digest(), solo, ties, ranks, finished, by_id)


BIG_TURN = 10 ** 6
_NO_ACTION: dict = {}  # (read only: an entry with no declaration, as 'end turn')


def _action_option(o: ActionChoice) -> Option:
    """A menu entry as the decision's option (made when the options are read)."""
    return Option(o.words if isinstance(o.words, str) else o.said, o, o.key)


def _action_prompt(name: str, count: str) -> str:
    return f"{name}: choose an action{count}"


def _refused_words(refused: list, unlisted: bool = False) -> dict:
    """The refused actions as a person reads them: label -> reason (words or a function
    making them); those hidden when not allowed only with ``unlisted``."""
    return {choice.label: reason.reason if reason.__class__ is Unlisted else reason
            for choice, reason in refused if unlisted or reason.__class__ is not Unlisted}
