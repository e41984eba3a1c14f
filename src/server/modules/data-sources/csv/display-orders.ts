import { CLOCK_EVERY, TimeSlicer } from "./yield";

/**
 * The display orders of an uploaded file's rows, in file order, changing as few stored rows as
 * possible (D151): the longest run of rows whose stored orders already ascend in file order
 * keeps them, and every other row (new, revived or moved) gets an order between its neighbours.
 * Dropping rows or inserting some thus leaves the others untouched, so a re-upload rewrites only
 * what really moved. When the gaps run out (many inserts at one place over many uploads), every
 * row is renumbered 1…n.
 *
 * `previous[i]`: the stored order of the live row with the i-th row's key, or null.
 * Every pass over the rows gives the event loop a turn every few ms (`slicer`, D140): at 100 000
 * rows, before the JIT has optimised it, this took 25–75 ms in one piece.
 */
export async function assignDisplayOrders(previous: ReadonlyArray<number | null>, slicer = new TimeSlicer()): Promise<number[]> {
  const count = previous.length;
  const keep = await ascendingRun(previous, slicer);
  const orders = new Array<number>(count);
  let i = 0;
  let before: number | null = null;
  while (i < count) {
    if (keep[i]) {
      before = previous[i]!;
      orders[i] = before;
      i++;
      if ((i & CLOCK_EVERY) === 0) await slicer.pause();
      continue;
    }
    let end = i;
    while (end < count && !keep[end]) end++;
    const after = end < count ? previous[end]! : null;
    const gap = end - i;
    for (let j = 1; j <= gap; j++) {
      orders[i + j - 1] =
        before === null && after === null
          ? j
          : before === null
            ? after! - (gap + 1) + j
            : after === null
              ? before + j
              : before + ((after - before) * j) / (gap + 1);
      if ((j & CLOCK_EVERY) === 0) await slicer.pause();
    }
    i = end;
    await slicer.pause();
  }
  if (await strictlyAscending(orders, slicer)) return orders;
  for (let k = 0; k < count; k++) {
    orders[k] = k + 1;
    if ((k & CLOCK_EVERY) === 0) await slicer.pause();
  }
  return orders;
}

async function strictlyAscending(orders: number[], slicer: TimeSlicer): Promise<boolean> {
  for (let i = 0; i < orders.length; i++) {
    if (!Number.isFinite(orders[i]!)) return false;
    if (i > 0 && !(orders[i - 1]! < orders[i]!)) return false;
    if ((i & CLOCK_EVERY) === 0) await slicer.pause();
  }
  return true;
}

/**
 * Marks a longest strictly ascending subsequence of the non-null, finite values (O(n log n);
 * O(n) while the values ascend, the usual re-upload, by trying the end of the run first).
 */
async function ascendingRun(values: ReadonlyArray<number | null>, slicer: TimeSlicer): Promise<Uint8Array> {
  const tailIndex = new Int32Array(values.length);
  let tails = 0;
  const parent = new Int32Array(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    if ((i & CLOCK_EVERY) === 0) await slicer.pause();
    const value = values[i];
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    let lo = tails;
    if (tails > 0 && !(values[tailIndex[tails - 1]!]! < value)) {
      lo = 0;
      let hi = tails;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (values[tailIndex[mid]!]! < value) lo = mid + 1;
        else hi = mid;
      }
    }
    if (lo > 0) parent[i] = tailIndex[lo - 1]!;
    tailIndex[lo] = i;
    if (lo === tails) tails++;
  }
  const keep = new Uint8Array(values.length);
  for (let i = tails > 0 ? tailIndex[tails - 1]! : -1; i >= 0; i = parent[i]!) keep[i] = 1;
  return keep;
}
