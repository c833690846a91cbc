"""A `Policy` is shared between threads, and rulesc works without the interpreter lock."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import rulesc
from conftest import GUARD as POLICY


def events(n: int) -> list[dict]:
    tools = ["rm", "ls", "send_mail", "rm -rf /", "cat"]
    return [
        {"event": "pre_tool_use", "tool": tools[i % len(tools)], "metadata": {"tainted": i % 3 == 0}}
        for i in range(n)
    ]


def test_one_policy_answers_many_threads_as_it_answers_one() -> None:
    policy = rulesc.Policy.from_source(POLICY)
    work = events(200)
    serial = [policy.evaluate(event) for event in work]
    assert {outcome["decision"] for outcome in serial} == {"block", "allow"}
    with ThreadPoolExecutor(max_workers=8) as pool:
        runs = list(pool.map(lambda _: [policy.evaluate(event) for event in work], range(16)))
    assert all(run == serial for run in runs)


def test_threads_each_with_a_session_keep_their_own_state() -> None:
    policy = rulesc.Policy.from_source(POLICY)

    def run(tainted: bool) -> list[str]:
        session = policy.session()
        if tainted:
            session.observe({"event": "post_tool_use", "tool": "web_fetch"})
        return [session.observe({"event": "pre_tool_use", "tool": "send_mail"})["decision"] for _ in range(50)]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, [i % 2 == 0 for i in range(32)]))
    for i, decisions in enumerate(results):
        assert decisions == ["block" if i % 2 == 0 else "allow"] * 50


def test_a_shared_session_loses_no_event() -> None:
    session = rulesc.Policy.from_source(POLICY).session()

    def run(thread: int) -> None:
        for i in range(100):
            session.observe({"event": "before_step", "metadata": {f"t{thread}-{i}": True}})

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(run, range(8)))
    assert len(session.metadata) == 800


def test_compiling_releases_the_interpreter_lock() -> None:
    # A policy big enough that compiling takes a while; if the lock were held, the ticking
    # thread could not run in the middle of it.
    source = "".join(
        f'@id("r{i}")\non pre_tool_use when tool == "t{i}" and arg.path ~ "/p{i}/*" block "no {i}"\n'
        for i in range(5000)
    )
    ticks: list[float] = []
    done = threading.Event()

    def tick() -> None:
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        start = time.perf_counter()
        policy = rulesc.Policy.from_source(source)
        end = time.perf_counter()
    finally:
        done.set()
        ticker.join()
    assert policy.evaluate({"event": "pre_tool_use", "tool": "t7", "arg": {"path": "/p7/x"}})["resolved_by"] == "r7"
    assert end - start > 0.05, "the policy compiled too fast to tell"
    middle = [t for t in ticks if start + (end - start) / 4 < t < end - (end - start) / 4]
    assert middle, f"no tick in {end - start:.3f}s of compiling"
