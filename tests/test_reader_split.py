"""The tune / held-back split of the dev forums stays the rule docs/dev/reader-split.md writes."""

import sys

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import reader_split  # noqa: E402

DOMAINS = ["b.org", "a.com", "d.net", "c.de", "a.com"]


def test_alternation_through_the_sorted_domains():
    assert [reader_split.half_of(d, DOMAINS) for d in ("a.com", "b.org", "c.de", "d.net")] == [
        "tune",
        "held",
        "tune",
        "held",
    ]


def test_both_pages_of_a_forum_in_one_half(shared):
    dev = shared / "fixtures/web-forum-52-dev"
    tune, held = (reader_split.documents(h, dev) for h in reader_split.HALVES)
    assert len(tune) == len(held) == 26
    assert not set(tune) & set(held)
    assert "www.amsel.de.multiple-sklerose-forum.221323" in tune
