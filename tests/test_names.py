"""Name resolution: each stage, ambiguity, and the living-only loose stages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modtool.core.names import (
    CONFIDENT,
    Method,
    Resolver,
    TargetKind,
    ThreadWords,
    _normalised_in_unicode,
    consonant_skeleton,
    loose_forms,
    normalise,
    opens_with_name,
    pet_stems,
    spoken_letters,
)

SLOTS = {
    "Fro99er": ["Fro99er"],
    "AngryPidgeon": ["AngryPidgeon"],
    "I Am Innocent": ["I Am Innocent"],
    "pieceofpecanpie": ["pieceofpecanpie"],
    "TheCow": ["TheCow"],
    "RadiantCowbells": ["RadiantCowbells"],
    "YES YES YES": ["YES YES YES"],
    "sordros": ["sordros", "Maemuki"],
    "qwints": ["qwints"],
    "Sundy": ["Sundy"],
    "Sunny": ["Sunny"],
    "kushm4sta": ["kushm4sta"],
    "Keyser Söze": ["Keyser Söze"],
    "코하이": ["코하이"],
    "Internet Stranger": ["Internet Stranger"],
    "Nobody Special": ["Nobody Special"],
    "Misaka Network": ["Misaka Network"],
    "greygnarl": ["greygnarl"],
    "dragonspawn": ["dragonspawn"],
}
resolver = Resolver.from_slots(SLOTS, {"AngryPidgeon": ["Pidge"]})


@pytest.mark.parametrize(
    ("text", "slot", "method"),
    [
        ("Fro99er", "Fro99er", Method.EXACT),
        ("pidge", "AngryPidgeon", Method.ALIAS),
        ("fro99er", "Fro99er", Method.NORMALISED),
        ("sordros", "sordros", Method.FORMER_NAME),
        ("Maemuki", "sordros", Method.EXACT),
        ("Cow", "TheCow", Method.WORD),
        ("kush", "kushm4sta", Method.PREFIX),
        ("pecan", "pieceofpecanpie", Method.SUBSTRING),
        ("IAI", "I Am Innocent", Method.ACRONYM),
        ("pcp", "pieceofpecanpie", Method.SUBSEQUENCE),
        ("Frog", "Fro99er", Method.PREFIX),  # leet digits read as letters
        ("quint", "qwints", Method.PREFIX),  # sounds alike
        ("Yes^3", "YES YES YES", Method.NORMALISED),
        ("Oso because he is scummy", None, None),
        ("AngryPidgin", "AngryPidgeon", Method.FUZZY),
        ("Keyser Soze", "Keyser Söze", Method.NORMALISED),  # accents dropped
        ("코하이", "코하이", Method.EXACT),
        ("코하", "코하이", Method.PREFIX),
        ("IS", "Internet Stranger", Method.ACRONYM),  # capitals: initials, not the word "is"
        ("is", None, None),
        # The whole name before an opening that is a no-lynch word.
        ("Nobody Special", "Nobody Special", Method.EXACT),
        ("Nobody", None, None),
        # A misspelt word of a multi-word name; a swap of two letters is one edit.
        ("Misika", "Misaka Network", Method.WORD_TYPO),
        ("Netwrok", "Misaka Network", Method.WORD_TYPO),
        # An article before a handle that has none.
        ("Thegrey", "greygnarl", Method.PREFIX),
        ("the grey", "greygnarl", Method.PREFIX),
        ("TheCow", "TheCow", Method.EXACT),
        # Two letters are initials in any case.
        ("ds", "dragonspawn", Method.SUBSEQUENCE),
    ],
)
def test_stages(text, slot, method):
    result = resolver.resolve(text)
    assert (result.slot, result.method) == (slot, method)


def test_a_korean_name_answers_to_its_given_name():
    korean = Resolver.from_slots({"김철수": ["김철수"], "이영희": ["이영희"], "박영희": ["박영희"]})
    found = korean.resolve("철수")
    assert (found.slot, found.method) == ("김철수", Method.WORD)
    assert found.confidence >= CONFIDENT  # a whole given name, not two letters guessed at
    assert resolver.resolve("ds").confidence < CONFIDENT  # two Latin letters stay a guess
    assert set(korean.resolve("영희").candidates) == {"이영희", "박영희"}  # two called 영희
    assert korean.resolve("철").kind is TargetKind.UNRESOLVED  # one syllable is no given name


def test_ambiguous_prefix_is_reported_with_candidates():
    result = resolver.resolve("Sun")
    assert result.kind is TargetKind.AMBIGUOUS
    assert result.candidates == ("Sundy", "Sunny")


def test_loose_stages_only_consider_the_living():
    alive = frozenset(SLOTS) - {"Sundy"}
    result = resolver.resolve("Sun", alive)
    assert (result.kind, result.slot) == (TargetKind.PLAYER, "Sunny")


def test_exact_names_of_the_dead_still_resolve():
    result = resolver.resolve("Sundy", frozenset(SLOTS) - {"Sundy"})
    assert result.slot == "Sundy"


@pytest.mark.parametrize("text", ["No Lynch", "nolynch", "No Elimination", "no exe", "노린치"])
def test_no_lynch_spellings(text):
    assert resolver.resolve(text).kind is TargetKind.NO_LYNCH


@pytest.mark.parametrize("text", ["", "unvote", "none", "Nothing"])
def test_empty_and_unvote_targets(text):
    assert resolver.resolve(text).kind is TargetKind.UNVOTE


def test_loose_guesses_carry_lower_confidence_than_exact_names():
    assert resolver.resolve("Fro99er").confidence == 1.0
    assert resolver.resolve("pcp").confidence < 0.9
    assert resolver.resolve("Frog").confidence < resolver.resolve("kush").confidence


def test_no_lynch_word_alone_is_still_a_no_lynch():
    assert resolver.resolve("nobody").kind is TargetKind.NO_LYNCH


def test_a_single_letter_names_the_only_living_player_it_starts():
    alive = frozenset({"Fro99er", "qwints", "Sunny"})
    assert resolver.resolve("q", alive).slot == "qwints"
    assert resolver.resolve("q", alive).method is Method.INITIAL
    # two living players start with s: no guess
    assert resolver.resolve("s", alive | {"sordros"}).kind is TargetKind.UNRESOLVED


def _learning(texts):
    learner = Resolver.from_slots({"Aneninen": ["Aneninen"], "pisskop": ["pisskop"]})
    learner.thread_words = ThreadWords(enumerate(texts))
    return learner


def test_a_nickname_the_thread_keeps_using_is_learned_with_its_evidence():
    texts = ["Adenine is scum", "I like Adenine", "adenine again", "no", "VOTE: Adenine"]
    found = _learning(texts).resolve("Adenine")
    assert (found.slot, found.method) == ("Aneninen", Method.NICKNAME)
    assert "used in 4 posts (0, 1, 2, 4)" in found.evidence


@pytest.mark.parametrize(
    "texts",
    [
        ["Adenine is scum", "VOTE: Adenine"],  # too few uses
        ["adenine is scum", "i like adenine", "adenine again", "vote: adenine"],  # never a name
    ],
)
def test_a_word_without_enough_evidence_is_not_a_nickname(texts):
    assert _learning(texts).resolve("Adenine").kind is TargetKind.UNRESOLVED


@pytest.mark.parametrize(
    ("word", "letters", "said"),
    [
        ("jaydee", "jd", "jay-dee"),
        ("emjay", "mj", "em-jay"),
        ("teebee", "tb", "tee-bee"),
        ("teeb", "tb", "tee-b"),  # the last letter cut to its consonant
        ("deej", "dj", "dee-j"),
        ("teebs", "tb", "tee-b-s"),  # with the pet-name "s"
        ("kaybees", "kb", "kay-bee-s"),
        ("emcee", "mc", "em-cee"),
        ("elenn", None, None),  # n is said "en": it has no cut form
        ("tee", None, None),  # one letter is not initials
        ("keyboard", None, None),
        ("bob", None, None),  # a clipped letter needs a letter's name before it
    ],
)
def test_spoken_letters(word, letters, said):
    found = spoken_letters(word)
    assert (found.get(letters) if letters else found) == (said if letters else {})


SPOKEN_SLOTS = {
    "TomBrady": ["TomBrady"],
    "JD": ["JD"],
    "MightyJoe": ["MightyJoe"],
    "Master Chief": ["Master Chief"],
    "Kite Bird": ["Kite Bird"],
    "Kelpie": ["Kelpie"],
}
spoken = Resolver.from_slots(SPOKEN_SLOTS)


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("teebs", "TomBrady"),  # initials of a CamelCase name
        ("Teebee", "TomBrady"),
        ("jaydee", "JD"),  # a name written as initials, spelt out
        ("emjay", "MightyJoe"),
        ("emcee", "Master Chief"),  # initials of a name of two words
        ("kaybee", "Kite Bird"),
        ("essay", None),  # a word that spells letters nobody's initials are
        ("tee", None),
    ],
)
def test_initials_said_aloud_name_the_one_living_player_they_spell(text, slot):
    found = spoken.resolve(text)
    assert found.slot == slot
    if slot is not None:
        assert found.method is Method.SPOKEN_INITIALS
        assert found.confidence < 0.9  # counted, and shown to the host with how it was read


def test_initials_said_aloud_are_ambiguous_when_two_players_share_them_and_dead_ones_dont_count():
    twins = Resolver.from_slots({"TrueBlue": ["TrueBlue"], "Tall Boy": ["Tall Boy"]})
    assert twins.resolve("teebs").candidates == ("Tall Boy", "TrueBlue")
    assert twins.resolve("teebs", frozenset({"Tall Boy"})).slot == "Tall Boy"


def test_initials_said_aloud_show_how_they_were_read_and_where_the_thread_uses_them():
    learner = Resolver.from_slots({"TrueBlue": ["TrueBlue"], "Ann": ["Ann"]})
    learner.thread_words = ThreadWords(enumerate(["teebs is scum", "hi", "VOTE: teebs"]))
    found = learner.resolve("teebs")
    assert found.evidence == "'teebs' says T-B aloud (tee-b-s); used in 2 posts (0, 2)"


@pytest.mark.parametrize(
    ("word", "stems"),
    [
        ("hopsy", {"hop": "sy", "hops": "y"}),
        ("notty", {"nott": "y", "not": "ty"}),  # the last consonant doubled before the ending
        ("aspy", {"asp": "y"}),
        ("maddie", {"madd": "ie", "mad": "die"}),
        ("bert", {}),
        ("amy", {}),  # a stem has three letters or more
    ],
)
def test_pet_stems(word, stems):
    assert pet_stems(word) == stems


PETS = Resolver.from_slots(
    {
        "Hopkirk": ["Hopkirk"],
        "notscience": ["notscience"],
        "A Simple Plan": ["A Simple Plan"],
        "Madrigal77": ["Madrigal77"],
        "Torvald": ["Torvald"],
        "Tortuga": ["Tortuga"],
    }
)


@pytest.mark.parametrize(
    ("text", "slot", "evidence"),
    [
        ("Hopsy", "Hopkirk", "'Hopsy' is a pet name: 'hop' + 'sy', the start of Hopkirk"),
        ("Notty", "notscience", "'Notty' is a pet name: 'not' + 'ty', the start of notscience"),
        ("Aspy", "A Simple Plan", "'Aspy' is a pet name: 'asp' + 'y', A Simple Plan's initials"),
        ("Maddie", "Madrigal77", "'Maddie' is a pet name: 'mad' + 'die', the start of Madrigal77"),
    ],
)
def test_a_pet_name_made_from_the_start_of_a_name_or_its_initials(text, slot, evidence):
    found = PETS.resolve(text)
    assert (found.slot, found.method, found.evidence) == (slot, Method.PET_NAME, evidence)
    assert found.confidence < 0.9


def test_a_pet_name_two_players_could_have_is_ambiguous_and_the_dead_do_not_count():
    assert PETS.resolve("Torry").candidates == ("Tortuga", "Torvald")
    assert PETS.resolve("Torry", frozenset({"Torvald", "Hopkirk"})).slot == "Torvald"
    assert PETS.resolve("Bertie").kind is TargetKind.UNRESOLVED


def test_nl_is_no_lynch_unless_it_is_a_living_players_initials():
    both = Resolver.from_slots({"Nelly": ["Nelly"], "Night Lord": ["Night Lord"]})
    assert both.resolve("NL", frozenset({"Nelly"})).kind is TargetKind.NO_LYNCH
    assert both.resolve("nl", frozenset({"Nelly", "Night Lord"})).slot == "Night Lord"


@pytest.mark.parametrize(
    ("text", "name", "same"),
    [
        ("Sat Away I Have a Girlfriend", "stay away I have a gf", True),  # a slip, a short form
        ("Sat Away I Have a GF", "stay away I have a girlfriend", True),
        ("The Big Cat", "The Big Dog", False),  # a slip keeps the first letter
        ("Sat Awey I Hove a Girlfriend", "stay away I have a gf", False),  # half must be exact
        ("Count Dracula Jr", "Count Dracula", False),  # as many words
        ("MonkeyMan567", "MonkeyMan576", False),  # a name without spaces is one word
    ],
)
def test_a_long_name_written_word_by_word(text, name, same):
    found = Resolver.from_slots({name: [name], "Ann": ["Ann"]}).resolve(text)
    assert (found.method is Method.WORD_BY_WORD) == same
    if same:
        assert found.slot == name


@pytest.mark.parametrize(
    ("word", "alike"),
    [
        ("vivivivijayayayay", "vijay"),  # syllables said over and over
        ("toffeeeeee", "tofe"),
        ("lalala", "la"),
        ("bananas", "bananas"),  # twice is how words are spelt, not a stutter
        ("mimi", "mimi"),
    ],
)
def test_stuttered_syllables_and_doubled_letters_collapse_in_look_alikes(word, alike):
    assert loose_forms(word)[-1] == alike


def test_a_stuttered_name_reads_as_its_player_with_a_lower_confidence():
    found = Resolver.from_slots({"vijay2v": ["vijay2v"], "Ann": ["Ann"]}).resolve("vivivijayayay")
    assert found.slot == "vijay2v"
    assert found.confidence < 0.9


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("alugura", "Arugula"),  # the inner letters out of order, first and last kept
        ("Nteowrk", "Misaka Network"),  # a word of the name
        ("aluguar", None),  # the last letter moved: not a scrambled word
        ("Anl", None),  # too short to tell
    ],
)
def test_a_name_with_its_inner_letters_scrambled(text, slot):
    found = Resolver.from_slots(
        {"Arugula": ["Arugula"], "Misaka Network": ["Misaka Network"], "Lan": ["Lan"]}
    ).resolve(text)
    assert found.slot == slot
    if slot is not None:
        assert (found.method, found.confidence < 0.9) == (Method.SCRAMBLED, True)


# "NL" is no lynch only where no living name could be written so; a pet name whose stem another
# living name may start with, said aloud, is left to the host (a review found both misfiring).
SHORT_AND_PET_CASES = [
    (["NLJ", "Ann"], "NL", "player", {"NLJ"}),
    (["Nel", "Ann"], "NL", "no_lynch", set()),
    (["Ann", "Bob"], "NL", "no_lynch", set()),
    (["Thomas", "Tomahawk"], "Tommy", "ambiguous", {"Thomas", "Tomahawk"}),
    (["Elizabeth", "Lizard"], "Lizzy", "ambiguous", {"Elizabeth", "Lizard"}),
    (["Michael", "Miko"], "Mikey", "ambiguous", {"Michael", "Miko"}),
    (["James", "Jimbob"], "Jimmy", "ambiguous", {"James", "Jimbob"}),
    (["Katherine", "Kitchen Sink"], "Kitty", "ambiguous", {"Katherine", "Kitchen Sink"}),
    (["Hopkirk", "Ann"], "Hopsy", "player", {"Hopkirk"}),
    (["notscience", "Bob"], "Notty", "player", {"notscience"}),
]


@pytest.mark.parametrize(("players", "target", "kind", "slots"), SHORT_AND_PET_CASES)
def test_short_targets_and_pet_names_leave_a_doubt_to_the_host(players, target, kind, slots):
    found = Resolver.from_slots({p: [p] for p in players}).resolve(target)
    assert found.kind.value == kind
    assert ({found.slot} if found.slot else set(found.candidates)) == slots


def test_nl_is_no_lynch_only_in_a_game_that_has_one():
    found = Resolver.from_slots({"Ann": ["Ann"]}, no_lynch_words=()).resolve("NL")
    assert found.kind.value != "no_lynch"


@pytest.mark.parametrize(
    ("word", "skeleton"),
    [("thomas", "tms"), ("michael", "mkl"), ("elizabeth", "lsbt"), ("tom", "tm"), ("kit", "kt")],
)
def test_a_consonant_skeleton_is_how_a_word_sounds(word, skeleton):
    assert consonant_skeleton(word) == skeleton


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ('me" is disingenuous', None),  # a sentence read on from a quotation: not "Meis"
        ("me” is odd", None),
        ("Meis", "Meisterhaus"),  # the same letters as a target of their own
        ('Ann"', "Ann"),  # a quotation mark at the edge of a name
    ],
)
def test_a_target_that_runs_on_from_a_quotation_is_not_guessed_at(text, slot):
    found = Resolver.from_slots({"Meisterhaus": ["Meisterhaus"], "Ann": ["Ann"]}).resolve(text)
    assert found.slot == slot


DEFINING = {"cloudocean": ["cloudocean"], "CooLskins": ["CooLskins"], "Rhea": ["Rhea"]}


@pytest.mark.parametrize(
    ("thread", "slot", "method"),
    [
        (["I think CO=cloudocean is town"], "cloudocean", Method.DEFINED),
        (["CO = Cloudocean, for short"], "cloudocean", Method.DEFINED),
        (["ok so CO is cloudocean, right?"], "cloudocean", Method.DEFINED),
        (["CO means cloud ocean"], "cloudocean", Method.DEFINED),  # spaces aside
        (["cloudocean (CO) is town"], "cloudocean", Method.DEFINED),
        (["no definition here"], "CooLskins", Method.PREFIX),  # as before: the start of a name
        (["CO is cloudocean", "CO = CooLskins"], "CooLskins", Method.PREFIX),  # two: no definition
        (["CO is cloudocean's buddy"], "CooLskins", Method.PREFIX),  # a word about her
        (["DECO = cloudocean"], "CooLskins", Method.PREFIX),  # another word
        (["COis cloudocean"], "CooLskins", Method.PREFIX),
        (["COO = cloudocean"], "CooLskins", Method.WORD),  # a word of her name: surer
        (["CO is cloudocean scum"], "CooLskins", Method.PREFIX),  # a read, not a definition
        (["CO is Rhea."], "CooLskins", Method.PREFIX),  # not her letters: two players
        (["CO is cloudocean."], "cloudocean", Method.DEFINED),
    ],
)
def test_a_short_form_the_thread_defines_outranks_the_start_of_another_name(thread, slot, method):
    resolver = Resolver.from_slots(DEFINING)
    resolver.thread_words = ThreadWords(enumerate(thread, start=10))
    short = "COO" if "COO" in thread[0] else "CO"
    found = resolver.resolve(short, frozenset(DEFINING))
    assert (found.slot, found.method) == (slot, method)
    if method is Method.DEFINED:
        assert found.confidence < 0.9
        assert found.evidence == "'CO' is defined as cloudocean in 1 post (10)"


def test_a_short_form_defined_as_a_dead_player_is_not_read_as_them():
    resolver = Resolver.from_slots(DEFINING)
    resolver.thread_words = ThreadWords([(1, "CO = cloudocean")])
    found = resolver.resolve("CO", frozenset({"CooLskins", "Rhea"}))
    assert (found.slot, found.method) == ("CooLskins", Method.PREFIX)


@pytest.mark.parametrize(
    ("text", "name", "opens"),
    [
        ("cloudocean is town", "cloudocean", True),
        ("Cloud Ocean.", "cloudocean", True),
        ("cloudoceans", "cloudocean", False),
        ("cloudocean's", "cloudocean", False),
        ("the cloudocean", "cloudocean", False),
    ],
)
def test_opens_with_name(text, name, opens):
    assert opens_with_name(text, name) is opens


def test_a_name_that_ends_its_clause():
    assert opens_with_name("cloudocean, yes", "cloudocean", whole=True)
    assert not opens_with_name("cloudocean scum", "cloudocean", whole=True)


FITZ_THREAD = ["fitz is town", "I like fitz", "fitz again", "Fitz!", "VOTE: Fritz"]


@pytest.mark.parametrize(
    ("text", "others", "thread", "slot", "how"),
    [
        ("Fritz", {}, FITZ_THREAD, "havingfitz", "'fitz' with a letter added"),
        ("Fiz", {}, FITZ_THREAD, None, None),  # three letters: too short to tell a slip
        ("Fitze", {}, FITZ_THREAD, "havingfitz", None),  # (a substring stage reads 'fitz')
        ("Fotz", {}, FITZ_THREAD, "havingfitz", "'fitz' with a letter changed"),
        ("Fritz", {}, FITZ_THREAD[:2], None, None),  # not established: two posts use it
        ("Fritz", {"Frotzen": ["Frotzen"]}, FITZ_THREAD, "ambiguous", None),  # near 'frotz'
        ("Fritz", {"Fritzl": ["Fritzl"]}, FITZ_THREAD, "Fritzl", None),  # a prefix is surer
        ("Fritz", {"fitzgerald": ["fitzgerald"]}, FITZ_THREAD, None, None),  # 'fitz': whose?
    ],
)
def test_a_slip_of_a_short_form_the_thread_established(text, others, thread, slot, how):
    resolver = Resolver.from_slots({"havingfitz": ["havingfitz"], "Ann": ["Ann"], **others})
    resolver.thread_words = ThreadWords(enumerate(thread))
    found = resolver.resolve(text)
    if slot == "ambiguous":
        assert found.kind is TargetKind.AMBIGUOUS
        assert found.candidates == ("Frotzen", "havingfitz")
        return
    assert found.slot == slot
    if how is not None:
        assert found.method is Method.SHORT_FORM_SLIP and found.confidence < 0.9
        assert found.evidence == (
            f"{text!r} read as {how}, the thread's short form for havingfitz "
            "(used in 4 posts (0, 1, 2, 3))"
        )


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_normalise_of_ascii_names_is_the_unicode_round_trip(name):
    # ASCII names skip the decomposition: it would change nothing in them
    assert normalise(name) == _normalised_in_unicode(name)


@pytest.mark.parametrize(
    ("name", "normal"),
    [
        ("Söze", "soze"),
        ("Mr. Bob_2", "mrbob2"),
        ("ＦＵＬＬ", "full"),
        ("홍길동", "홍길동"),
        ("Straße", "strasse"),
    ],
)
def test_normalise(name, normal):
    assert normalise(name) == normal
