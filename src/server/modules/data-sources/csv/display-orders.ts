/**
 * The display orders of an uploaded file's rows, in file order, changing as few stored rows as
 * possible (D151): the longest run of rows whose stored orders already ascend in file order
 * keeps them, and every other row (new, revived or moved) gets an order between its neighbours.
 * Dropping rows or inserting some thus leaves the others untouched, so a re-upload rewrites only
 * what really moved. When the gaps run out (many inserts at one place over many uploads), every
 * row is renumbered 1…n.
 *
 * `previous[i]`: the stored order of the live row with the i-th row's key, or null.
 */
export function assignDisplayOrders(previous: ReadonlyArray<number | null>): number[] {
  const keep = ascendingRun(previous);
  const orders = new Array<number>(previous.length);
  let i = 0;
  let before: number | null = null;
  while (i < previous.length) {
    if (keep[i]) {
      before = previous[i]!;
      orders[i] = before;
      i++;
      continue;
    }
    let end = i;
    while (end < previous.length && !keep[end]) end++;
    const after = end < previous.length ? previous[end]! : null;
    const count = end - i;
    for (let j = 1; j <= count; j++) {
      orders[i + j - 1] =
        before === null && after === null ? j
        : before === null ? after! - (count + 1) + j
        : after === null ? before + j
        : before + ((after - before) * j) / (count + 1);
    }
    i = end;
  }
  return strictlyAscending(orders) ? orders : orders.map((_, index) => index + 1);
}

function strictlyAscending(orders: number[]): boolean {
  for (let i = 0; i < orders.length; i++) {
    if (!Number.isFinite(orders[i]!)) return false;
    if (i > 0 && !(orders[i - 1]! < orders[i]!)) return false;
  }
  return true;
}

/** Marks a longest strictly ascending subsequence of the non-null, finite values (O(n log n)). */
function ascendingRun(values: ReadonlyArray<number | null>): boolean[] {
  const tailIndex: number[] = [];
  const parent = new Array<number>(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined || !Number.isFinite(value)) continue;
    let lo = 0;
    let hi = tailIndex.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tailIndex[mid]!]! < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) parent[i] = tailIndex[lo - 1]!;
    tailIndex[lo] = i;
  }
  const keep = new Array<boolean>(values.length).fill(false);
  for (let i = tailIndex.at(-1) ?? -1; i >= 0; i = parent[i]!) keep[i] = true;
  return keep;
}
