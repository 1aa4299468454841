"""Threads: steps run without the GIL, and a second thread that calls into a simulator while
one of its steps runs gets RuntimeError instead of a data race; Ctrl+C stops a long run."""

import _thread
import threading
import time

import pytest

import orca
import orca.rvo2 as rvo2


def crowd(n=400):
    sim = orca.Simulator(0.1, radius=0.4, events=False)
    side = int(n ** 0.5)
    for i in range(n):
        sim.add_agent((i % side * 1.0, i // side * 1.0), goal=(side - i % side, side - i // side))
    return sim


def test_a_second_thread_gets_runtime_error_during_a_run():
    sim = crowd()
    runner = threading.Thread(target=sim.step, args=(300,))
    busy = 0
    runner.start()
    while runner.is_alive():
        try:
            sim.positions
            sim.positions = sim.positions
        except RuntimeError as e:
            assert "busy in another thread" in str(e)
            busy += 1
        time.sleep(0.001)
    runner.join()
    assert sim.step_count == 300
    assert busy > 0  # the stepping thread let this one run while it held the simulator
    sim.step()  # and the simulator is free again


def test_python_rvo2_steps_release_the_gil_and_are_guarded():
    sim = rvo2.PyRVOSimulator(0.1, 3, 10, 2, 2, 0.4, 1)
    for i in range(900):
        sim.addAgent((i % 30 * 1.0, i // 30 * 1.0))
    errors = []

    def run():
        for _ in range(30):
            for i in range(900):
                sim.setAgentPrefVelocity(i, (1, 0.5))
            sim.doStep()

    runner = threading.Thread(target=run)
    runner.start()
    calls = 0
    while runner.is_alive():
        try:
            sim.getAgentPosition(calls % 900)
            calls += 1
        except RuntimeError as e:
            errors.append(str(e))
    runner.join()
    assert all("busy in another thread" in e for e in errors)
    assert sim.getGlobalTime() == pytest.approx(3.0)


def test_keyboard_interrupt_stops_a_long_run_between_steps():
    sim = crowd(100)
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        sim.step(10**12)
    timer.join()
    done = sim.step_count
    assert 0 < done < 10**12
    sim.step()  # usable afterwards
    assert sim.step_count == done + 1
