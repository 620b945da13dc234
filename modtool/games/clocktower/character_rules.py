"""Clocktower characters that change a forum count, where a vote stands in for a nomination
(the forum Clocktower game): the Butler, the Virgin, the Witch and the Slayer. The decisions are the
pure functions of `.rules` (butler_refusal, virgin_vote, witch_curse_kills, slayer_shot); this
module
applies them to a day's walk at the exact post.

Each day starts from the grimoire at the start of the day (characters, reminders, the Butler's
master); abilities used up on earlier days are carried in `used` (slot -> day).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core.results import Outcome, OutcomeKind
from ...core.rules import NO_LYNCH_KEY
from .night import tea_lady_protected
from .rules import (
    SLAYER_KILLS,
    WITCH_KILLS,
    ClocktowerRule,
    SlayerResult,
    VirginResult,
    butler_refusal,
    butler_votes_to_drop,
    slayer_shot,
    virgin_vote,
    witch_curse_kills,
)
from .wins import lleech_survives_execution


@dataclass
class CharacterRules:
    walk: object  # count._DayWalk
    grimoire: object  # grimoire.Grimoire at the start of the day
    used: dict[str, int]  # slot -> the day its once-per-game ability was used (all days so far)
    used_today: set[str] = field(default_factory=set)
    warned: set[str] = field(default_factory=set)

    # --- who is who ---------------------------------------------------------------------------

    def _seat(self, slot: str):
        return self.grimoire.seat(slot)

    def _works(self, slot: str) -> bool:
        """The character's ability works now: alive in the count, not drunk or poisoned."""
        return slot in self.walk.state.alive and not self._seat(slot).drunk_or_poisoned

    def _spent(self, slot: str) -> bool:
        return slot in self.used or slot in self.used_today or self._seat(slot).has("no_ability")

    # --- hooks the walk calls -------------------------------------------------------------

    def refusal(self, voter: str, target: str, post, pos: int) -> ClocktowerRule | None:
        """Before a living player's vote counts: the Butler needs their master on the target."""
        seat = self._seat(voter)
        if seat.character != "butler" or target == NO_LYNCH_KEY:
            return None
        if seat.master is None and voter not in self.warned:
            self.warned.add(voter)
            self.walk.warn(
                post,
                f"no master recorded for the Butler ({post.author}) on Day {self.walk.window.day}; "
                "their votes count as usual (modtool record master)",
            )
        master_targets = set(self.walk.state.standing(seat.master)) if seat.master else set()
        refused = butler_refusal(self._works(voter), seat.master, master_targets, target)
        if refused is not None:
            self.walk.warn(
                post,
                f"{post.author} is the Butler and their master does not vote for "
                f"{self.walk.display(target, pos)}: not counted",
            )
        return refused

    def before_vote(self, voter: str, post, pos: int) -> ClocktowerRule | None:
        """A cursed player who votes dies (the Witch): the rule, when the voter died."""
        seat = self._seat(voter)
        if not seat.has("cursed"):
            return None
        witches = [s.slot for s in self.grimoire.holding("witch")]
        witch_works = any(self._works(w) for w in witches)
        if not witch_curse_kills(True, witch_works, len(self.walk.state.alive)):
            return None
        self.walk.kill(voter, post, "cursed by the Witch", WITCH_KILLS)
        self.walk.warn(
            post,
            f"{post.author} was cursed by the Witch and voted: they die now "
            "(modtool end-day records it)",
        )
        return ClocktowerRule.WITCH

    def after_vote(self, voter: str, target: str, post, pos: int) -> Outcome | None:
        """The first vote that counts on the Virgin."""
        if target == NO_LYNCH_KEY or self._seat(target).character != "virgin":
            return None
        spent_before = self._spent(target)
        result = virgin_vote(
            spent_before,
            self._works(target),
            self._seat(voter).team,
            self._seat(voter).character,
        )
        if result is VirginResult.SPENT_BEFORE:
            return None
        self.used_today.add(target)
        virgin = self.walk.display(target, pos)
        if result is VirginResult.STORYTELLER:
            self.walk.warn(
                post,
                f"{post.author} (the Spy) voted first for the Virgin ({virgin}); the Spy may "
                "register as a Townsfolk: if the Storyteller executes them, record the death",
            )
        if result is not VirginResult.EXECUTE:
            return None
        who = self.walk.display(voter, pos)
        return Outcome(
            OutcomeKind.EXECUTION,
            who,
            post.number,
            f"{who} is a Townsfolk and voted first for the Virgin ({virgin}): executed at once",
            ClocktowerRule.VIRGIN,
            thread=post.thread,
        )

    def after_action(self, post, pos: int) -> None:
        """ "If your Master unvotes, your vote will also be removed" (the forum Clocktower game)."""
        state = self.walk.state
        for seat in self.grimoire.holding("butler"):
            butler = seat.slot
            if seat.master is None or butler not in state.alive or not self._works(butler):
                continue
            mine = set(state.standing(butler)) - {NO_LYNCH_KEY}
            for target in butler_votes_to_drop(mine, set(state.standing(seat.master))):
                state.withdraw(butler, target)
                self.walk.warn(
                    post,
                    f"the Butler ({self.walk.display(butler, pos)})'s vote on "
                    f"{self.walk.display(target, pos)} is removed: their master "
                    f"({self.walk.display(seat.master, pos)}) no longer votes for them",
                )

    def execution_spared(self, slot: str) -> str | None:
        """The Tea Lady: "If your alive neighbours are good, they can't die"; the Fool: "The
        first time you die, you don't"; the Lleech "lives if their host lives" (the almanac)."""
        seat = self._seat(slot)
        if slot in tea_lady_protected(list(self.grimoire.seats), set(self.walk.state.alive)):
            return "the Tea Lady's good neighbours cannot die"
        if seat.character == "fool" and self._works(slot) and not self._spent(slot):
            self.used_today.add(slot)
            return "the Fool's first death: they do not die"
        hosts = [s for s in self.grimoire.seats if s.has("lleech_host")]
        if seat.character == "lleech" and lleech_survives_execution(
            any(h.slot in self.walk.state.alive for h in hosts)
        ):
            return "the Lleech lives while its host lives"
        return None

    def day_ability(self, event, post, pos: int) -> None:
        """A host-announced day ability at its post: the Slayer's shot kills an alive Demon."""
        if event.ability != "slayer":
            return
        shooter, target = event.slot, event.target
        seat = self._seat(shooter)
        if seat.character != "slayer" or target is None:
            return
        target_seat = self._seat(target)
        result = slayer_shot(
            self._works(shooter),
            self._spent(shooter),
            target_seat.character,
            target_seat.team,
            target in self.walk.state.alive,
        )
        self.used_today.add(shooter)
        name = self.walk.display(target, pos)
        if result is SlayerResult.KILLS:
            self.walk.kill(target, post, "slain by the Slayer", SLAYER_KILLS)
            self.walk.warn(post, f"the Slayer shot {name}, the Demon: {name} dies")
        elif result is SlayerResult.STORYTELLER:
            self.walk.warn(
                post,
                f"the Slayer shot {name}, the Recluse, who may register as the Demon: if the "
                "Storyteller kills them, record the death",
            )
