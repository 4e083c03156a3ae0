"""The ring cue's places are few whatever the table (store.RING_MOST, issue #25): on a table
fitting a plain face's ring means all over (tuning family 42, store photo 3 as the
benchmark draws it) the cue made 146 places, each matched at every angle and compared as a
pair: 3.7 s of CPU for one store, the benchmark's slowest reads. The store reads the same."""

from __future__ import annotations

from glade_family import benchmark_store_photo, glade_family, lit_store_reading

from companion.the_glade.recognition import glade_polar, store


def test_a_table_fitting_ring_means_all_over_makes_few_places(monkeypatch) -> None:
    pack, glade, model = glade_family(42)
    photo, truth = benchmark_store_photo(pack, glade, 42, 3)
    calls = {"match": 0, "pair": 0}
    match, pair = glade_polar.PolarFaces.match, glade_polar.PolarFaces.pair

    def counted_match(self, *args, **kwargs):
        calls["match"] += 1
        return match(self, *args, **kwargs)

    def counted_pair(self, *args, **kwargs):
        calls["pair"] += 1
        return pair(self, *args, **kwargs)

    monkeypatch.setattr(glade_polar.PolarFaces, "match", counted_match)
    monkeypatch.setattr(glade_polar.PolarFaces, "pair", counted_pair)
    result = lit_store_reading(pack, model, photo, truth).result(with_matches=True)
    assert result == {"store": truth["store"],
                      "store_match_counters": truth["store_match_counters"],
                      "store_uncertain": 0}
    # 10 places of the other cues, 1 beside them, at most RING_MOST of the ring cue (156
    # matches and 145 pair comparisons before)
    assert calls["match"] <= 11 + store.RING_MOST
    assert calls["pair"] <= 11
