#!/usr/bin/env python3
"""Lines up bench_push_parts' stamps of all PEs (BENCH_DUMP=prefix, PEs
sharing one GPU: one %globaltimer).  push_parts.py prefix-fcollect-524288
prints, as medians over the calls (ns): how much later than the first PE
the last one starts, then from the last start: when every block has met
its peers (enter), pushed (push) and met them again (leave), and the gap
from a call's last block to the next call's first."""
import glob, statistics, sys, collections

def main(prefix):
    st = collections.defaultdict(dict)   # (it, block) -> pe -> stamps
    pes = sorted(int(f.rsplit('.', 1)[1]) for f in glob.glob(prefix + '.*'))
    for pe in pes:
        for line in open(f'{prefix}.{pe}'):
            it, b, *t = map(int, line.split(','))
            st[(it, b)][pe] = t
    its = sorted({k[0] for k in st})
    nb = max(k[1] for k in st) + 1
    rows = collections.defaultdict(list)
    for it in its[1:-1]:
        blocks = [st[(it, b)] for b in range(nb) if len(st[(it, b)]) == len(pes)]
        if len(blocks) != nb: continue
        start = {p: min(b[p][0] for b in blocks) for p in pes}
        end = {p: max(b[p][4] for b in blocks) for p in pes}
        t0 = max(start.values())
        rows['start skew'].append(t0 - min(start.values()))
        rows['last start -> all peers found'].append(max(b[p][1] for b in blocks for p in pes) - t0)
        rows['last start -> all entered'].append(max(b[p][2] for b in blocks for p in pes) - t0)
        rows['last start -> all pushed'].append(max(b[p][3] for b in blocks for p in pes) - t0)
        rows['last start -> all left'].append(max(end.values()) - t0)
        # a meeting's wait once its last member arrived (block by block)
        for b in blocks:
            last_in = max(b[p][1] for p in pes)
            rows['enter: after the last arrival'].append(max(b[p][2] for p in pes) - last_in)
            last_done = max(b[p][3] for p in pes)
            rows['leave: after the last push'].append(max(b[p][4] for p in pes) - last_done)
            rows['push (a block)'].extend(b[p][3] - b[p][2] for p in pes)
        nxt = [st[(it + 1, b)] for b in range(nb) if len(st[(it + 1, b)]) == len(pes)]
        if nxt:
            rows['gap to the next call (a PE)'].extend(min(b[p][0] for b in nxt) - end[p] for p in pes)
            rows['kernel (a PE)'].extend(end[p] - start[p] for p in pes)
    print(f'{prefix}: {len(pes)} PEs, {nb} blocks, {len(its)} calls; medians (ns)')
    for k, v in rows.items():
        print(f'  {k:34s} {statistics.median(v):8.0f}')

if __name__ == '__main__':
    for p in sys.argv[1:]: main(p)
