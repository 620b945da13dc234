"""`@frozen` against the stdlib's `@dataclass(frozen=True)`: the same class written both ways
must build, compare, hash, print, copy, pickle and refuse changes alike."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, InitVar, field  # noqa: F401 (InitVar: eval'd)

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modtool.threads.frozen import frozen


def _both(slots: bool = True):
    """A pair of the same class: built by @frozen and by the stdlib."""

    def body():
        class Point:
            """A point."""

            x: int
            label: str = "p"
            tags: tuple = ()
            seen: list = field(default_factory=list, compare=False, repr=False)
            weight: float | None = field(default=None, hash=False)

        return Point

    ours = frozen(slots=slots)(body())
    theirs = dataclasses.dataclass(frozen=True, slots=slots)(body())
    return ours, theirs


# Module level, so that pickle finds them by name.
PickledOurs, PickledTheirs = _both()
PickledOurs.__qualname__ = PickledOurs.__name__ = "PickledOurs"
PickledTheirs.__qualname__ = PickledTheirs.__name__ = "PickledTheirs"

VALUES = st.tuples(
    st.integers(-3, 3),
    st.sampled_from(["p", "q", ""]),
    st.lists(st.integers(0, 2), max_size=2).map(tuple),
    st.none() | st.floats(allow_nan=True, width=16),
)


@pytest.mark.parametrize("slots", [True, False])
@given(a=VALUES, b=VALUES)
def test_built_compared_hashed_and_printed_as_the_stdlib_does(slots, a, b):
    ours, theirs = _both(slots)
    mine_a, mine_b = ours(*a[:3], weight=a[3]), ours(*b[:3], weight=b[3])
    std_a, std_b = theirs(*a[:3], weight=a[3]), theirs(*b[:3], weight=b[3])
    assert (mine_a == mine_b) == (std_a == std_b)
    assert (mine_a == mine_a) == (std_a == std_a)  # a NaN weight compares as the tuple does
    assert hash(mine_a) == hash(std_a)  # the same fields, hashed as one tuple
    assert repr(mine_a).replace("Point", "X") == repr(std_a).replace("Point", "X")
    assert mine_a.__eq__(std_a) is NotImplemented  # another class is never equal


@pytest.mark.parametrize("slots", [True, False])
def test_changes_are_refused_and_copies_made_as_the_stdlib_does(slots):
    ours, _ = _both(slots)
    point = ours(1, tags=(2,))
    with pytest.raises(FrozenInstanceError):
        point.x = 2
    with pytest.raises(FrozenInstanceError):
        del point.label
    assert point.seen == [] and point.seen is not ours(1).seen  # a fresh default each time
    assert dataclasses.replace(point, x=5) == ours(5, tags=(2,))
    assert copy.copy(point) == point and copy.deepcopy(point) == point
    assert ours.__match_args__ == ("x", "label", "tags", "seen", "weight")
    assert [f.name for f in dataclasses.fields(point)] == list(ours.__match_args__)
    with pytest.raises(TypeError):
        ours()  # x has no default


def test_a_slots_class_pickles_and_has_no_dict():
    point = PickledOurs(3, "q", (1,), weight=0.5)
    assert pickle.loads(pickle.dumps(point)) == point
    assert not hasattr(point, "__dict__")
    assert pickle.loads(pickle.dumps(PickledTheirs(3))) == PickledTheirs(3)


def test_post_init_runs_last_and_subclasses_add_fields():
    @frozen
    class Base:
        a: int
        doubled: int = 0

        def __post_init__(self) -> None:
            object.__setattr__(self, "doubled", self.a * 2)

    @frozen
    class Child(Base):
        b: str = "b"

    assert Base(2).doubled == 4
    child = Child(3, b="c")
    assert (child.a, child.doubled, child.b) == (3, 6, "c")
    assert child != Base(3)  # another class
    assert repr(child).endswith(".Child(a=3, doubled=6, b='c')")  # the qualified name


@pytest.mark.parametrize(
    "annotation, default",
    [
        ("int", field(default=0, init=False)),
        ("InitVar[int]", 0),
        ("int", field(default=0, kw_only=True)),
    ],
)
def test_a_field_outside_the_plain_init_is_refused(annotation, default):
    namespace = {"__annotations__": {"a": eval(annotation)}, "a": default}
    with pytest.raises(TypeError, match="use @dataclass"):
        frozen(type("Odd", (), namespace))


def test_a_class_that_writes_its_own_eq_is_hashed_by_its_fields_as_the_stdlib_does():
    def body():
        class Named:
            name: str

            def __eq__(self, other):
                return type(other) is type(self) and self.name.lower() == other.name.lower()

        return Named

    ours, theirs = frozen(body()), dataclasses.dataclass(frozen=True, slots=True)(body())
    assert hash(ours("a")) == hash(theirs("a")) == hash(("a",))
    assert ours("A") == ours("a")  # its own __eq__ stays


def test_a_plain_subclass_may_add_attributes_but_not_change_fields():
    ours, theirs = _both(slots=False)

    class Extra(ours):
        pass

    class StdExtra(theirs):
        pass

    for cls in (Extra, StdExtra):
        point = cls(1)
        point.note = "kept"
        assert point.note == "kept"
        del point.note
        with pytest.raises(FrozenInstanceError):
            point.x = 2
