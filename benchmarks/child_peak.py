"""The source of `peak_kb()` for benchmark child processes (`python -c`): the child's own peak
resident memory in KB, from /proc/self/status VmHWM (`ru_maxrss` keeps the parent's peak across
fork + exec), with ru_maxrss where /proc is missing."""

PEAK_KB_SOURCE = '''
import resource
def peak_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
'''
