"""What the GPU timing scripts share."""
import time


def best(f, sync, reps=5):
    """The best of reps timed runs of f (after one warm-up), in ms, sync() ending each."""
    f()
    sync()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        sync()
        ts.append(time.perf_counter() - t0)
    return min(ts) * 1e3
