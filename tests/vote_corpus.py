"""The phrasing corpus: posts as forums render them (HTML) and the actions a careful host reads.

Grouped by form. Each row is (presets it is read under, post, actions); "{a}" and "{b}" are
filled with each pair of NAMES, so every form is read with plain names, names with spaces,
digits, an initial and a name that is a keyword. Actions are written "vote Ann; unvote;
unvote Bo" (an empty list: no action). Forms follow ../shared/docs/CONVENTIONS.md §1 and the
botc-forum rules of seed 003 ("VTL [Player Name]", "Unvote").
"""

from __future__ import annotations

BOTC, MS, VAMP = "botc-forum", "mafiascum", "vampire"
ALL = (BOTC, MS, VAMP)
BOLD_GAMES = ALL  # every preset reads bold votes
HASH_GAMES = (MS, VAMP)

NAMES = (
    ("Ann", "Bo"),
    ("Kohai", "wylted"),
    ("Count Dracula", "ILikePie5"),
    ("Albert B. Rampage", "x_Neros_x"),
)

OFFICIAL = '<span class="bbvote" title="This is an official vote.">VOTE: {a}</span>'
OFFICIAL_UN = '<span class="bbvote" title="This is an official unvote.">UNVOTE: {a}</span>'

FORMS: dict[str, list[tuple[tuple[str, ...], str, str]]] = {
    "official [vote] tag": [
        (ALL, OFFICIAL, "vote {a}"),
        (ALL, "I think so.<br>" + OFFICIAL, "vote {a}"),
        (ALL, OFFICIAL_UN + OFFICIAL.replace("{a}", "{b}"), "unvote {a}; vote {b}"),
        (ALL, "Mid-sentence " + OFFICIAL + " because of the wagon", "vote {a}"),
    ],
    "bold with colon": [
        (BOLD_GAMES, "<b>Vote: {a}</b>", "vote {a}"),
        (BOLD_GAMES, "<b>VOTE: {a}</b>", "vote {a}"),
        (BOLD_GAMES, "<strong>vote:{a}</strong>", "vote {a}"),
        (BOLD_GAMES, "<b>Vote:</b> {a}", "vote {a}"),
        (BOLD_GAMES, "I will <b>VOTE: {a}</b> for that post", "vote {a}"),
        (BOLD_GAMES, '<span style="font-weight: bold">Vote: {a}</span>', "vote {a}"),
        (BOLD_GAMES, '<span class="noboldsig">Vote: {a}</span>', "vote {a}"),
        (BOLD_GAMES, "<b>Vote - {a}</b>", "vote {a}"),
        (BOLD_GAMES, "<b>Vote @{a}</b>", "vote {a}"),
        (BOLD_GAMES, "<b>Vote: {a}?</b>", "vote {a}"),
        (BOLD_GAMES, "<b>Vote; {a}</b>", "vote {a}"),
    ],
    "bold without colon": [
        (BOLD_GAMES, "<b>Vote {a}</b>", "vote {a}"),
        (BOLD_GAMES, "<b>vote {a}</b><br>reasons below", "vote {a}"),
        (BOLD_GAMES, "<b>Vote</b>", ""),
        (BOLD_GAMES, "<b>Vote count please?</b>", ""),
        (BOLD_GAMES, "<b>Unvote</b>", "unvote"),
        (BOLD_GAMES, "<b>Unvote: {a}</b>", "unvote {a}"),
    ],
    "bold unvote then vote": [
        (BOLD_GAMES, "<b>Unvote, Vote: {a}</b>", "unvote; vote {a}"),
        (BOLD_GAMES, "<b>Unvote Vote:{a}</b>", "unvote; vote {a}"),
        (BOLD_GAMES, "<b>UNVOTE: {a} VOTE: {b}</b>", "unvote {a}; vote {b}"),
        (BOLD_GAMES, "<b>Unvote; Vote: {b}</b>", "unvote; vote {b}"),
        (BOLD_GAMES, "<b>Unvote {a} - vote {b}</b>", "unvote {a}; vote {b}"),
        (BOLD_GAMES, "<b>Unvote</b><br><b>Vote: {b}</b>", "unvote; vote {b}"),
        (BOLD_GAMES, "<b>FoS: {a}, Vote: {b}</b>", "vote {b}"),
    ],
    "bbcode tags": [
        (ALL, "[vote]{a}[/vote]", "vote {a}"),
        (ALL, "[v]{a}[/v]", "vote {a}"),
        (ALL, "[V]{a}[/V]", "vote {a}"),
        (ALL, "[unvote][/unvote]", "unvote"),
        (ALL, "[uv][/uv]", "unvote"),
        (ALL, "[UNV]{a}[/UNV]", "unvote {a}"),
        (ALL, "[unvote][/unvote] [vote]{b}[/vote]", "unvote; vote {b}"),
        # a closing tag botched: the forum leaves the tags as text, a host reads the vote
        (ALL, "[vote]{a}[/vote<br>Yet again", "vote {a}"),
        (ALL, "I will [vote]{a}[vote] as looking back", "vote {a}"),
        (ALL, "[v]{a}[/very good", ""),
    ],
    "bold the forum left as BBCode": [
        (BOLD_GAMES, "[b]Vote: {a}]/b] he bussed", "vote {a}"),
        (BOLD_GAMES, "it is.[b[Vote:{a}[/b]", "vote {a}"),
        (BOLD_GAMES, "why, bob?<br><br>[b]Vote: {a}[/i]", "vote {a}"),
        (BOLD_GAMES, "[b]Vote: {a}[b]<br>reasons", "vote {a}"),
        (BOLD_GAMES, "[/b]Vote: {a}[/b]", "vote {a}"),
        (BOLD_GAMES, "so scum.<br>[b]vote: {a}", "vote {a}"),
        (BOLD_GAMES, "[b] Unvote<br>Vote: {a}<br><br>vote {b} later", "unvote; vote {a}"),
        (BOLD_GAMES, "<b>Vote: {a}</b>[/b] then vote {b}", "vote {a}"),
        (BOLD_GAMES, "[b]Votecount 1.4[/b]<br>{a} (2): {b}", ""),
        (BOLD_GAMES, "[b]-Account getting deleted.", ""),
    ],
    "hash prefix": [
        (HASH_GAMES, "##vote: {a}", "vote {a}"),
        (HASH_GAMES, "##VOTE {a}", "vote {a}"),
        (HASH_GAMES, "## vote {a}", "vote {a}"),
        (HASH_GAMES, "#vote {a}", "vote {a}"),
        (HASH_GAMES, "##unvote", "unvote"),
        (HASH_GAMES, "##unvote: {a}<br>##vote: {b}", "unvote {a}; vote {b}"),
        (HASH_GAMES, "##unvote, ##vote {b}", "unvote; vote {b}"),
        (HASH_GAMES, "#unvote", "unvote"),
        (HASH_GAMES, "##Vote:{a}", "vote {a}"),
        (HASH_GAMES, "##END", ""),  # a vote to end the day early, not a vote for a player
        (HASH_GAMES, "##UNEND", ""),
    ],
    "plain with colon (vampire)": [
        ((VAMP,), "Vote: {a}", "vote {a}"),
        ((VAMP,), "vote: {a}<br>she dodged my question", "vote {a}"),
        ((VAMP,), "Unvote", "unvote"),
        ((VAMP,), "Unvote. Vote: {b}", "unvote; vote {b}"),
        ((VAMP,), "vote {a}", ""),
        ((MS,), "Vote: {a}", ""),
    ],
    "no lynch": [
        (BOLD_GAMES, "<b>Vote: No Lynch</b>", "vote No Lynch"),
        (BOLD_GAMES, "<b>VOTE: No Elimination</b>", "vote No Elimination"),
        (HASH_GAMES, "##VOTE: NoLynch", "vote NoLynch"),
        (HASH_GAMES, "##vote NOLYNCH", "vote NOLYNCH"),
        (BOLD_GAMES, "<b>Vote: No Exile</b>", "vote No Exile"),
        (ALL, "[vote]no lynch[/vote]", "vote no lynch"),
        (BOLD_GAMES, "<b>vote: NL</b>", "vote NL"),
        (ALL, "[vote]No Exe[/vote]", "vote No Exe"),
        (BOLD_GAMES, "<b>Vote: Abstain</b>", "vote Abstain"),  # a separate option, not no lynch
    ],
    "vtl": [
        ((BOTC,), "VTL {a}", "vote {a}"),
        ((BOTC,), "vtl {a}", "vote {a}"),
        ((BOTC,), "VTL: {a}", "vote {a}"),
        ((BOTC,), "VTL - {a}", "vote {a}"),
        ((BOTC,), "VTL @{a}", "vote {a}"),
        ((BOTC,), "<b>VTL {a}</b>", "vote {a}"),
        ((BOTC,), '<span style="color: red">VTL</span> {a}', "vote {a}"),
        ((BOTC,), '<span style="font-size: 150%">VTL {a}</span>', "vote {a}"),
        ((BOTC,), "Morning all. {b} was quiet.<br>VTL {a}", "vote {a}"),
        ((BOTC,), "{b} looks fine. VTL {a}", "vote {a}"),
        ((BOTC,), "VTL {a}, that vote on me was random.", "vote {a}"),
        ((BOTC,), "Ghost vote: VTL {a}", "vote {a}"),
        ((BOTC,), "VTL {a}!", "vote {a}"),
        ((BOTC,), "So VTL {a}", "vote {a}"),
        ((BOTC,), "ok, unvote {a}", "unvote {a}"),
        ((BOTC,), "Fine. VTL {a}", "vote {a}"),
        ((BOTC,), "going to VTL {a} later", ""),
        ((BOTC,), "VTL: {a}?", "vote {a}"),
        ((MS, VAMP), "VTL {a}", ""),
    ],
    "vtl several on a line": [
        ((BOTC,), "VTL {a}, VTL {b}", "vote {a}; vote {b}"),
        ((BOTC,), "VTL {a}; VTL {b}", "vote {a}; vote {b}"),
        ((BOTC,), "VTL {a} and VTL {b}", "vote {a}; vote {b}"),
        ((BOTC,), "VTL {a} & VTL {b}", "vote {a}; vote {b}"),
        ((BOTC,), "VTL {a} / VTL {b}", "vote {a}; vote {b}"),
        ((BOTC,), "VTL {a} VTL {b}", "vote {a}; vote {b}"),
        ((BOTC,), "VTL {a} then VTL {b}", "vote {a}; vote {b}"),
        ((BOTC,), "VTL {a}<br>VTL {b}", "vote {a}; vote {b}"),
    ],
    "vtl unvote": [
        ((BOTC,), "Unvote", "unvote"),
        ((BOTC,), "unvote.", "unvote"),
        ((BOTC,), "Unvote {a}", "unvote {a}"),
        ((BOTC,), "Unvote: {a}", "unvote {a}"),
        ((BOTC,), "Unvote {a}<br>{b} is enough for today.", "unvote {a}"),
        ((BOTC,), "Unvote. VTL {b}", "unvote; vote {b}"),
        ((BOTC,), "Unvote {a}. VTL {b}", "unvote {a}; vote {b}"),
        ((BOTC,), "Unvote, VTL {b}", "unvote; vote {b}"),
        ((BOTC,), "Unvote<br>VTL {b}", "unvote; vote {b}"),
        ((BOTC,), "Unvote {a}, VTL {b}", "unvote {a}; vote {b}"),
        ((BOTC,), "Unvote {a}. Unvote {b}", "unvote {a}; unvote {b}"),
        ((BOTC,), "Unvote {a} and unvote {b}", "unvote {a}; unvote {b}"),
        ((BOTC,), "Unvote {a} then VTL {b}", "unvote {a}; vote {b}"),
    ],
    "a player named like a keyword": [
        ((BOTC,), "VTL Vote", "vote Vote"),
        ((BOTC,), "Unvote Vote", "unvote Vote"),
        ((BOTC,), "VTL Unvote", "vote Unvote"),
        ((BOTC,), "Unvote Vote, VTL {a}", "unvote Vote; vote {a}"),
        (BOLD_GAMES, "<b>Vote: Vote</b>", "vote Vote"),
        (BOLD_GAMES, "<b>Vote IS</b>", "vote IS"),
        (BOLD_GAMES, "<b>Vote ON</b>", "vote ON"),
        (BOLD_GAMES, "<b>Unvote: Vote</b>", "unvote Vote"),
    ],
    "talk, not a vote": [
        ((BOTC,), "I'd VTL {a} if she claimed", ""),
        ((BOTC,), "don't VTL {a}", ""),
        ((BOTC,), "why did you VTL {a}?", ""),
        ((BOTC,), "VTL {a}?", ""),
        ((BOTC,), "VTL {a} if she does not claim", ""),
        ((BOTC,), "I will not unvote until {a} claims.", ""),
        ((BOTC,), "so I'd VTL {a} if she claimed", ""),
        (BOLD_GAMES, "<b>VOTE ON BOB</b> IS COMING", ""),
        (BOLD_GAMES, "<b>vote on Bob</b> is coming", ""),
        ((BOTC,), "my VTL on {a} stays", ""),
        ((BOTC,), "Should I unvote?", ""),
        (BOLD_GAMES, "<b>Do not vote {a}</b>", ""),
        (BOLD_GAMES, "I will vote {a} today", ""),
        (BOLD_GAMES, "my <b>vote on {a}</b> is coming", ""),
        (BOLD_GAMES, "<b>vote is</b> on {a}", ""),
        (BOLD_GAMES, "<b>I'd vote {a} if he claimed</b>", ""),
        (BOLD_GAMES, "<b>Vote {a}?</b>", ""),
        (BOLD_GAMES, "<b>vote {a} if he claims</b>", ""),
        (BOLD_GAMES, "<b>Vote counters do not like {a}</b>", ""),
        (BOLD_GAMES, "<b>vote counter</b> is late", ""),
    ],
    "reported speech in quotation marks": [
        (BOLD_GAMES, '<b>saying "if I\'m the top scumread, vote me" is disingenuous</b>', ""),
        (
            BOLD_GAMES,
            'a <b>saying "if I\'m wrong, vote {a}" is cheap</b> line<br><b>Vote: {b}</b>',
            "vote {b}",
        ),
        (BOLD_GAMES, "<b>Vote: {a}</b>, because “if it's close, vote {b}” is lazy", "vote {a}"),
        (BOLD_GAMES, '<b>you wrote "ok, unvote {a}" and then did not</b>', ""),
        ((BOTC,), 'she said "fine, VTL {a}" and left', ""),
        ((BOTC,), "his line 'ok, VTL {a}' was odd", ""),
        ((BOTC,), 'VTL {a}, because "sure, VTL {b}" was scummy', "vote {a}"),
        ((BOTC,), "I'm done, VTL {a}", "vote {a}"),  # apostrophes pair nothing
        ((BOTC,), "it's Bo's fault, VTL {a}", "vote {a}"),
        ((MS, VAMP), '<b>Vote: {a}</b> "vote {b}, he said"', "vote {a}"),
    ],
    "short forms the thread defines": [
        (BOLD_GAMES, "CO = {a}, to save typing<br><b>Vote: CO</b>", "vote CO"),
        (BOLD_GAMES, "<b>CO is {a}</b>", ""),  # a definition, not a vote
        ((BOTC,), "CO = {a}. VTL CO", "vote CO"),
        (BOLD_GAMES, "{a} (CO) is scummy, so <b>VOTE: CO</b>", "vote CO"),
        ((MS, VAMP), "CO={a}<br>##vote CO", "vote CO"),
    ],
    "a misspelt short form": [
        (BOLD_GAMES, "{a} calls him fitz, so do I<br><b>VOTE: Fritz</b>", "vote Fritz"),
        ((BOTC,), "VTL Fritz, not {a}", "vote Fritz"),
        (BOLD_GAMES, "<b>Unvote: {a}, Vote: Fritz</b>", "unvote {a}; vote Fritz"),
        ((MS, VAMP), "##vote Fritz<br>{a} is next", "vote Fritz"),
    ],
    "forms other sites use": [
        (BOLD_GAMES, "<b>Vote @ {a}</b>", "vote {a}"),
        (BOLD_GAMES, "<b>Vote: none</b>", "vote none"),
        (BOLD_GAMES, "<b>Unvote</b> <b>Vote: {a}</b>", "unvote; vote {a}"),
        (BOLD_GAMES, "<b>Unvote {a} - Vote {b}</b>", "unvote {a}; vote {b}"),
        (HASH_GAMES, "<b>##vote {a}</b>", "vote {a}"),
        (ALL, "<b>lynch {a}</b>", ""),  # not these games' syntax
        (ALL, "voting {a} today", ""),
        (ALL, "/vote {a}", ""),
        ((VAMP,), "Unvote; Vote: {b}", "unvote; vote {b}"),
        ((VAMP,), "Vote @ {a}", ""),  # plain votes need the colon
        # "Vote Lynch XXX": the verb the vote already says, before its target
        (BOLD_GAMES, "<b>[Vote Lynch {a}]</b>", "vote {a}"),
        (BOLD_GAMES, "<b>Vote: lynch {a}</b>", "vote {a}"),
        (BOLD_GAMES, "<b>VOTE: unvote</b>", "vote unvote"),  # read as an unvote by the count
        (ALL, "[vote][/vote]", "vote"),  # an empty vote: an unvote too
        (ALL, "[Vote Lynch {a}]", ""),  # not bold: not these games' syntax
        ((MS, BOTC), "[vote:{a}]", ""),
        ((VAMP,), "[vote:{a}]", "vote {a}"),  # plain "vote:" is the vampire game's syntax
        (ALL, "/accuse {a}", ""),
        (ALL, "@mafiabot lynch {a}", ""),
        (BOLD_GAMES, "<b>Kill: {a}</b>", ""),  # a day kill, not a vote
        (BOLD_GAMES, "<b>Abstain Vote</b>", ""),
    ],
    "quoted, spoilered or struck": [
        (ALL, "<blockquote><cite>{b} wrote:</cite><b>Vote: {a}</b></blockquote>Nope.", ""),
        ((BOTC,), "<blockquote><cite>{b} said:</cite>VTL {a}</blockquote>Not convinced.", ""),
        (
            ALL,
            '<div class="quotetitle"><b>Spoiler: </b></div><div class="quotecontent"><div>'
            "<b>Vote: {a}</b></div></div>",
            "",
        ),
        (ALL, "<strike><b>Vote: {a}</b></strike> <b>Vote: {b}</b>", "vote {b}"),
        (ALL, "<s><b>Vote: {a}</b></s>", ""),
        (ALL, "<del><b>Vote: {a}</b></del>", ""),
        (ALL, '<span style="text-decoration: line-through"><b>Vote: {a}</b></span>', ""),
        ((BOTC,), '<span style="text-decoration: line-through">VTL {a}</span>', ""),
        ((BOTC,), "<s>VTL {a}</s> VTL {b}", "vote {b}"),
        ((BOTC,), "[s]VTL {a}[/s] VTL {b}", "vote {b}"),
        (ALL, "[s]<b>Vote: {a}</b>[/s]", ""),
        (ALL, "<details><summary>spoiler</summary><b>Vote: {a}</b></details>", ""),
        # a quote's BBCode the forum left as text (a bracket forgotten) is still a quote
        (ALL, '[quote="{b}"]<b>Vote: {a}</b>[/quote]Nope.', ""),
        (ALL, '[quote="In post 12, {b}"]<b>Vote: {a}</b>[/quote<br><b>Vote: {b}</b>', "vote {b}"),
        ((BOTC,), "[quote={b}]VTL {a}[/quote] VTL {b}", "vote {b}"),
        (HASH_GAMES, "[QUOTE]##vote {a}[/QUOTE]<br>##vote {b}", "vote {b}"),
    ],
}


def parse_actions(text: str) -> list[tuple[str, str]]:
    """ "vote Ann; unvote" -> [("vote", "Ann"), ("unvote", "")]."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        kind, _, target = part.partition(" ")
        out.append((kind, target))
    return out


def cases():
    """(form, preset, html, expected actions) for every row and name pair."""
    for form, rows in FORMS.items():
        for presets, html, expected in rows:
            names = NAMES if "{a}" in html or "{b}" in html else NAMES[:1]
            for a, b in names:
                for preset in presets:
                    post = html.replace("{a}", a).replace("{b}", b)
                    want = expected.replace("{a}", a).replace("{b}", b)
                    yield form, preset, post, parse_actions(want)
