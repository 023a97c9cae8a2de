/**
 * The first `limit` items in `compare` order that `accept` (asked in that order) keeps, looking at
 * no more than `examine` items, without sorting them all: the items become a binary heap (linear
 * time) and only as many are popped as it takes. An outbox claim wants a few dozen of thousands of
 * due deliveries; a full sort per claim made the memory outbox slower as its backlog grew.
 * `items` is reordered in place (it becomes the heap): pass an array nobody else reads.
 */
export function takeInOrder<T>(
  items: T[],
  compare: (a: T, b: T) => number,
  limit: number,
  accept: (item: T) => boolean = () => true,
  examine = Infinity,
): T[] {
  const heap = items;
  const siftDown = (from: number, size: number) => {
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) return;
      const right = left + 1;
      const child = right < size && compare(heap[right]!, heap[left]!) < 0 ? right : left;
      if (compare(heap[child]!, heap[i]!) >= 0) return;
      [heap[i], heap[child]] = [heap[child]!, heap[i]!];
      i = child;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i, heap.length);
  const out: T[] = [];
  let size = heap.length;
  for (let examined = 0; out.length < limit && size > 0 && examined < examine; examined++) {
    const top = heap[0]!;
    size--;
    heap[0] = heap[size]!;
    siftDown(0, size);
    if (accept(top)) out.push(top);
  }
  return out;
}
