"""Unit tests of the allocation report (bench/common/profile/allocation_profile.py), with hand-made JFR events."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import allocation_profile as tool  # noqa: E402


def statistics(thread_id, name, allocated):
    return {"values": {"thread": {"javaThreadId": thread_id, "javaName": name}, "allocated": allocated}}


def sample(cls, weight, *frames):
    return {"values": {"objectClass": {"name": cls.replace(".", "/")}, "weight": weight,
                       "stackTrace": {"frames": [{"method": {"type": {"name": t.replace(".", "/")}, "name": m}}
                                                 for t, m in frames]}}}


def test_each_thread_counts_what_it_allocated_between_its_first_and_last_event():
    events = [statistics(1, "site-0", 1000), statistics(2, "network", 50), statistics(1, "site-0", 4000),
              statistics(2, "network", 250), statistics(3, "late", 7)]
    assert tool.allocated_by_thread(events) == {"site-0 #1": 3000, "network #2": 200, "late #3": 0}


def test_a_sample_is_charged_to_the_first_method_outside_the_jdk():
    by_class, by_method = tool.samples_by([
        sample("java.lang.Long", 32, ("java.lang.Long", "valueOf"), ("org.partita.server.database.Site", "run")),
        sample("java.lang.Long", 16, ("java.lang.Long", "valueOf"), ("org.partita.server.database.Site", "run")),
        sample("byte[]", 8, ("java.util.Arrays", "copyOf")),
        sample("int[]", 4)])
    assert by_class == {"java.lang.Long": 48, "byte[]": 8, "int[]": 4}
    assert by_method == {"Site.run": 48, "java.util.Arrays.copyOf": 8, "?": 4}


def test_the_report_scales_samples_to_the_measured_bytes_per_call():
    class Args:
        title = "t"
        duration = 2
    threads = {"site-0 #1": 3000, "network #2": 1000}
    by_class, by_method = tool.samples_by([sample("A", 3, ("x.Y", "a")), sample("B", 1, ("x.Z", "b"))])
    text, data = tool.report(Args(), {"answered": 10}, threads, by_class, by_method)
    assert data["bytes_per_call"] == 400
    assert data["by_class"] == [["A", 300.0], ["B", 100.0]]
    assert "400 bytes per call" in text and "10 (2 s, 5 calls/s)" in text
