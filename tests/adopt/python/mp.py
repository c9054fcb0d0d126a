# mp.py — piext.work in the children of multiprocessing's fork start method,
# which end with os._exit (t-python.sh)
import multiprocessing
import piext

if __name__ == "__main__":
    piext.work(5)
    ctx = multiprocessing.get_context("fork")
    kids = [ctx.Process(target=piext.work, args=(n,)) for n in (20, 30)]
    for k in kids:
        k.start()
    for k in kids:
        k.join()
    print("exitcodes", *[k.exitcode for k in kids])
