"""Timing shared by the benches: ours and the peer's runs alternated.

The development VM's speed drifts over minutes, so runs minutes apart can see
different machines; runs side by side see the same one."""
import time


def least_alternated(fns, rounds=3):
    """Call fns in turn, `rounds` times; the least time of each. A function that
    times itself (a peer in another process) returns its seconds as a float; any
    other return value means: take the wall time of the call."""
    least = [None] * len(fns)
    for _ in range(rounds):
        for k, fn in enumerate(fns):
            t0 = time.perf_counter()
            r = fn()
            dt = r if isinstance(r, float) else time.perf_counter() - t0
            least[k] = dt if least[k] is None else min(least[k], dt)
    return least
