"""Turning counts into output: the JSON objects and the plain tables (drafted posts are
rendered by `host.templating`).

Nothing here decides anything: every number printed was computed by `count` and `rules`.
"""

from __future__ import annotations

import json
from datetime import datetime

from ..core.results import DayCount, Win
from ..core.schedule import day_deadline, time_left
from ..core.table import text_table
from ..threads.times import UTC


def _table(rows, headers) -> str:
    """A plain-text table (core.table: tabulate's simple format)."""
    return text_table(rows, headers)


def count_to_json(dc: DayCount, audit: bool = False) -> dict:
    """The `modtool count --json` object for one day."""
    out = {
        "day": dc.day,
        "alive": dc.alive,
        "threshold": dc.threshold,
        "no_lynch_threshold": dc.no_lynch_threshold,
        "most_votes_win": dc.most_votes_win,
        "terms": {"eliminate": dc.terms[0], "no_elimination": dc.terms[1]},
        "last_post": dc.last_post,
        "wagons": [
            {
                "target": w.target,
                "votes": w.votes,
                "needed": w.needed,
                "short": w.short,
                "voters": [
                    {
                        "player": v.player,
                        "post": v.post,
                        "thread": v.thread,
                        "url": v.url,
                        "weight": v.weight,
                        "ghost": v.ghost,
                    }
                    for v in w.voters
                ],
            }
            for w in dc.wagons
        ],
        "not_voting": list(dc.not_voting),
        "outcome": {
            "kind": dc.outcome.kind,
            "player": dc.outcome.player,
            "post": dc.outcome.post,
            "reason": dc.outcome.reason,
            "rule": dc.outcome.rule,
            "tied": list(dc.outcome.tied),
            "votes": dc.outcome.votes,
            "needed": dc.outcome.needed,
            "alive": dc.outcome.alive,
            **({"survives": dc.outcome.survives} if dc.outcome.survives else {}),
        },
        "warnings": [{"post": n.post, "message": n.message} for n in dc.warnings],
    }
    if dc.deaths:  # only where a game's day rule killed, so other games' JSON stays as it was
        out["deaths"] = [
            {"player": d.player, "post": d.post, "cause": d.cause, "rule": d.rule}
            for d in dc.deaths
        ]
    if dc.checks:
        out["checks"] = [check_to_json(c) for c in dc.checks]
    if dc.win is not None:
        out["win"] = win_to_json(dc.win.win)
        out["win_notes"] = list(dc.win.notes)
    if audit:
        out["audit"] = [
            {
                "post": a.post,
                "thread": a.thread,
                "url": a.url,
                "author": a.author,
                "raw": a.raw,
                "action": a.action,
                "target": a.target,
                "method": a.method,
                "confidence": a.confidence,
                "accepted": a.accepted,
                "rule": a.rule,
                "evidence": a.evidence or None,
            }
            for a in dc.audit
        ]
    return out


def tie_chooser(dc: DayCount, language: str) -> str | None:
    """Who chooses among the tied (`tie = "team-chooses"`) in the post's language, as the game
    names them (its English words where it has none in that language); None if it names none."""
    words = dict(dc.tie_chooser)
    return words.get(language, words.get("en"))


def win_to_json(win: Win | None) -> dict | None:
    """A win as the JSON and the drafts name it: who, the rule's name, why."""
    if win is None:
        return None
    return {
        "winner": win.winner,
        "named": win.who,  # as a post names them: "the Vampires"
        "wins": win.wins(),  # with the verb agreeing: "the Vampires win", "good wins"
        "rule": win.rule.name.lower(),
        "reason": win.reason,
        "readings": [{"reading": q, "choice": c, "says": t} for q, c, t in win.readings],
    }


def check_to_json(check) -> dict:
    """One posted count (`count --check`) and where it differs from modtool's count."""
    post = check.posted.post
    return {
        "post": post.number,
        "thread": post.thread,
        "url": post.url,
        "author": post.author,
        "day": check.posted.day,
        "differences": [
            {
                "voter": d.voter,
                "posted": list(d.posted),
                "counted": [{"target": v.target, "post": v.post, "url": v.url} for v in d.counted],
            }
            for d in check.differences
        ],
        "notes": list(check.notes),
    }


def checks_text(checks) -> str:
    """The posted counts of a day, one line each, with the differences under those that differ."""
    if not checks:
        return "Posted counts: none found."
    differ = sum(1 for c in checks if c.differences)
    lines = [f"Posted counts: {len(checks)} found, {differ} differ from modtool's count."]
    for c in checks:
        post = c.posted.post
        if not c.differences and not c.notes:
            continue
        link = f" {post.url}" if post.url else ""
        lines.append(f"  post {post.number} by {post.author}{link}:")
        for d in c.differences:
            posted = ", ".join(d.posted) or "not voting"
            counted = ", ".join(f"{v.target} (#{v.post})" for v in d.counted) or "not voting"
            lines.append(f"    {d.voter}: posted {posted}; modtool counts {counted}")
        lines.extend(f"    note: {n}" for n in c.notes)
    return "\n".join(lines)


def schedule_to_json(found) -> list[dict]:
    """`modtool schedule --json`: one object per phase."""
    return [
        {
            "phase": str(p.phase),
            "name": p.phase.title,
            "start": p.start.isoformat() if p.start else None,
            "deadline": p.deadline.isoformat() if p.deadline else None,
            "deadline_utc": p.deadline.astimezone(UTC).isoformat() if p.deadline else None,
            "recorded": p.recorded,
            "game_over": p.over,
        }
        for p in found
    ]


def schedule_table(found, tz, now=None) -> str:
    """The phases, with times in the game's zone and the deadline in UTC too."""
    from datetime import datetime

    now = now or datetime.now(UTC)

    def shown(moment) -> str:
        return moment.astimezone(tz).strftime("%a %Y-%m-%d %H:%M %Z") if moment else "host decides"

    rows = []
    for p in found:
        if p.over:  # the game ended before it: the phase never comes
            rows.append((p.phase.title, f"never: {p.over}", "", "", ""))
            continue
        if p.deadline is None:
            left = ""
        else:
            left = time_left(p.deadline - now) or "past"
        utc = p.deadline.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if p.deadline else ""
        start = shown(p.start) if p.start else "when the host says"
        rows.append((p.phase.title, start, shown(p.deadline), utc, left))
    return _table(rows, headers=("Phase", "Starts", "Deadline", "Deadline (UTC)", "Left"))


def chats_text(entry) -> str:
    """A day's chats, the rules broken and what the host should look at."""
    lines = [f"Day {entry.day} group chats ({len(entry.chats)})"]
    rows = [
        (
            c.id,
            c.events[0].by if c.events else c.creator,  # who started it, whoever holds it now
            f"#{c.opened_post}",
            ", ".join(c.members),
            f"{c.closed['how']} #{c.closed.get('post')}" if c.closed else "open",
        )
        for c in entry.chats
    ]
    if rows:
        lines.append(_table(rows, headers=("Chat", "Started by", "Post", "Members", "Closed")))
    for v in entry.violations:
        lines.append(f"  post {v.post}: {v.author} broke {v.rule} ({v.chat}): {v.detail}")
    for r in entry.needs_review:
        lines.append(f"  post {r.post}: {r.author}: needs review: {r.reason}")
    if entry.needs_review:
        lines.append(
            "  to read a post as you do: modtool record chat-correction GAME POST "
            '"CHAT START: ..." (the short form), or "" to ignore its announcements'
        )
    for n in entry.names:
        lines.append(f"  post {n.post}: read {n.written!r} as {n.player} ({n.how})")
    return "\n".join(lines)


def activity_to_json(found) -> dict:
    return {
        "day": found.day,
        "as_of": found.as_of.isoformat(),
        "prod_after_hours": found.prod_after.total_seconds() / 3600,
        "players": [
            {
                "player": p.player,
                "posts": p.posts,
                "last_post": p.last_post,
                "last_time": p.last_time.isoformat() if p.last_time else None,
                "needs_prod": p.needs_prod,
            }
            for p in found.players
        ],
        "never_posted": list(found.never_posted),
    }


def activity_table(found, tz) -> str:
    rows = [
        (
            p.player,
            p.posts,
            f"#{p.last_post}" if p.last_post is not None else "",
            p.last_time.astimezone(tz).strftime("%Y-%m-%d %H:%M %Z") if p.last_time else "",
            "prod" if p.needs_prod else "",
        )
        for p in found.players
    ]
    table = _table(rows, headers=("Player", "Posts", "Last post", "Time", "Prod"))
    hours = found.prod_after.total_seconds() / 3600
    never = ", ".join(found.never_posted) or "-"
    return (
        f"Day {found.day} activity (prod after {hours:g} hours without a post)\n{table}\n"
        f"Never posted this day: {never}"
    )


def audit_text(dc: DayCount) -> str:
    """Every vote action of the day and the rule that decided it, one line each."""
    lines = [f"Audit ({len(dc.audit)} actions):"]
    for a in dc.audit:
        mark = "counted" if a.accepted else "not counted"
        how = f" [{a.method} {a.confidence:.2f}]" if a.method and a.confidence is not None else ""
        target = f" -> {a.target}" if a.target else ""
        why = f"; {a.evidence}" if a.evidence else ""
        lines.append(f"  post {a.post} {a.author}: {a.raw!r}{target}{how}: {mark} ({a.rule}{why})")
    return "\n".join(lines)


def count_table(dc: DayCount) -> str:
    """A readable count: wagons, not voting, the threshold, the outcome and warnings."""
    rows = [
        (
            w.target,
            w.votes,
            *(() if dc.most_votes_win else (f"L-{w.short}",)),
            ", ".join(
                f"{v.player} ({v.thread + ' ' if v.thread else ''}#{v.post})"
                + (" [ghost]" if v.ghost else "")
                + (f" x{v.weight}" if v.weight != 1 else "")
                for v in w.voters
            ),
        )
        for w in dc.wagons
    ]
    lines = [
        f"Day {dc.day} vote count"
        + (f" (through post {dc.last_post})" if dc.last_post is not None else "")
    ]
    if rows:
        needs = () if dc.most_votes_win else ("Needs",)
        lines.append(_table(rows, headers=("Wagon", "Votes", *needs, "Voters")))
    else:
        lines.append("No votes.")
    lines.append(f"Not voting ({len(dc.not_voting)}): " + (", ".join(dc.not_voting) or "-"))
    needs = f"With {dc.alive} alive, it takes {dc.threshold} to {dc.terms[0]}"
    if dc.most_votes_win:
        needs = (
            f"With {dc.alive} alive, the most votes when the day ends decide who to {dc.terms[0]}"
        )
    elif dc.no_lynch_threshold is not None and dc.no_lynch_threshold != dc.threshold:
        needs += f" and {dc.no_lynch_threshold} for {dc.terms[1]}"
    lines.append(needs + ".")
    o = dc.outcome
    verdict = {
        "execution": f"{o.player} is executed",
        "no_execution": "No execution",
        "pending": "Pending",
        "tie": "Tie: " + ", ".join(o.tied),
    }[o.kind]
    at = f" at post {o.post}" if o.post is not None and o.kind != "pending" else ""
    lines.append(f"Outcome: {verdict}{at} ({o.reason}).")
    if o.survives:
        lines.append(f"{o.player} does not die: {o.survives}.")
    if dc.win is not None and dc.win.win is not None:
        lines.append(f"Game over: {dc.win.win.wins()} ({dc.win.win.reason}).")
    if dc.win is not None:
        lines.extend(f"Note: {n}." for n in dc.win.notes)
    if dc.warnings:
        lines.append("Warnings:")
        lines.extend(
            f"  post {n.post}: {n.message}" if n.post is not None else f"  {n.message}"
            for n in dc.warnings
        )
    return "\n".join(lines)


def deadline_of(game, day: int, now=None, posts=()) -> dict | None:
    """The day's deadline for a drafted count: in the game's zone, in UTC, and the time left
    (a day started at a post starts at that post's time)."""
    deadline = day_deadline(game, day, posts)
    if deadline is None:
        return None
    return {
        "local": deadline.astimezone(game.timezone).strftime("%Y-%m-%d %H:%M %Z"),
        "utc": deadline.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "left": time_left(deadline - (now or datetime.now(UTC))),
    }


def explain_text(found: dict) -> str:
    """`modtool posts --explain` for one source."""
    lines = [f"{found['source']}: read by {found['engine']}", f"  rule: {found['rule']}"]
    if "posts" in found:
        lines.append(f"  posts: {found['posts']} of {found['blocks']} blocks")
    chosen = {k: v for k, v in found.get("selectors", {}).items() if v}
    if chosen:
        pairs = ", ".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in chosen.items())
        lines.append("  selectors it ended up with (a start for [[sources]] in game.toml):")
        lines.append(f"    selectors = {{ {pairs} }}")
    lines.extend(f"  {note}" for note in found.get("notes", ()))
    if found.get("unsure"):
        lines.append("  unsure of:")
        lines.extend(f"    - {u}" for u in found["unsure"])
    return "\n".join(lines) + "\n"
