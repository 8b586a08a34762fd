"""The staff's turns: how long each role's holder keeps the place, and the roles no coup names.
"""

from __future__ import annotations

from typing import Iterator

from casino_audit.core import findings as F
from casino_audit.core import pointers
from casino_audit.core.display import brief, nameless
from casino_audit.core.findings import Finding
from casino_audit.core.values import show
from casino_audit.logs.names import _same_name
from casino_audit.logs.clock import comparable
from casino_audit.logs.order import _longer, _minutes


class TurnAspects:
    """The staff turns of the core's aspects (a part of `CoreAspects`, whose state it reads)."""

    def _turns(self, record, data, when) -> Iterator[Finding]:
        staff = data.get("staff") if isinstance(data.get("staff"), dict) else {}
        for rule, spec in self.wanted["staff_turn"]:
            role = spec["role"]
            # the role as the law names it, where a coup does (PT n.º 18's «deitador de dados»), before the staff
            # role that holds it otherwise (the croupier who throws)
            key = next((name for name in spec.get("named_as", ()) if name in staff), role)
            if key == role and staff:  # the law's name written otherwise (`Deitador`): said, as the role's is
                for name in spec.get("named_as", ()):
                    if name not in self.misnamed:
                        yield from self._misnamed(record, staff, name)
            who = staff.get(key)
            held = self.turns.get(role)
            if held is not None and self._turn_ended(spec):
                del self.turns[role]
                held = None
            if not isinstance(who, str) or nameless(who):  # a name that says nothing names no one (said in `order`)
                if staff and role not in staff and role not in self.misnamed:
                    yield from self._misnamed(record, staff, role)
                # not recorded at this coup: nobody is seen relieving anyone, the turn runs on (and is measured:
                # a spinner named once and then left out of the coups holds the ball as long as they go on)
                if held is None:
                    continue
                who, unnamed = held[0], True
            else:
                self.named.add(role)
                unnamed = False
                if held is None or _same_name(held[0]) != _same_name(who):
                    self.turns[role] = (who, when, data.get("coup"), False, data.get("time"))
                    continue
            limit = spec["max_minutes"]
            longest = _minutes(limit)
            if longest is not None and not held[3] and comparable(when, held[1]) and _longer(when - held[1], longest):
                self.turns[role] = (*held[:3], True, held[4])
                yield from self.session._breach("staff_turn", record, "/staff" if unnamed else f"/staff/{key}",
                                      f"{who} has held the {key}'s place since coup {held[2]} "
                                      f"({held[4]}): more than {limit} minutes"
                                      + (f", no one named relieving {who} since" if unnamed else ""))

    def _turn_ended(self, spec) -> bool:
        """Whether a turn ends between the previous coup and this one: a new session or a new day began, after the
        table stood idle longer than the longest turn (PT n.º 18, 25, 33: «permanência na banca»: the same spinner at
        the next evening's session, or the afternoon's and the evening's, holds two turns). A session relabelled
        with the ball still in play ends nothing, else a new label every 50 minutes would pass any turn."""
        if not (self.new_session or self.new_day) or self.idle is None:
            return False
        longest = _minutes(spec["max_minutes"])
        return longest is not None and _longer(self.idle, longest)

    def _misnamed(self, record, staff: dict, role: str) -> Iterator[Finding]:
        """A role a turn rule reads, written otherwise only in case, spaces or Unicode form (`Spinner`): said once,
        not guessed at, for the rule would never see whose turn it was."""
        other = next((key for key in staff if key != role and _same_name(key) == _same_name(role)), None)
        if other is not None:
            self.misnamed.add(role)
            yield self.session._tool(F.LOAD_AMBIGUOUS, pointers.child("/staff", other), f"the staff role "
                                     f"{brief(show(other))} differs from {role!r} only in case, spaces or Unicode "
                                     f"form: it is not read as the {role}, whose turns are not measured where it is "
                                     "named so", record)

    def _roles_never_named(self) -> Iterator[Finding]:
        """A turn rule whose role no coup of the log names was never applied: said, not passed in silence (a log
        that leaves out `staff` would otherwise pass PT-ROUL-LOG-SPINNER whatever the turns were)."""
        session = self.session
        if not session.counts.checked:
            return
        for rule, spec in self.wanted.get("staff_turn", ()):
            if spec["role"] not in self.named:
                session._not_applied(rule, f"no coup names the {spec['role']} (`staff/{spec['role']}`): whose turn "
                                           "it was, and for how long, cannot be told")
        yield from session.start()
