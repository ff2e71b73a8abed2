// The order of the clients in a round of `make bench` (bench/run.mjs).

/**
 * roundOrder is the order in which the clients run in round `round` (1, 2, …): the list rotated
 * by one place per round (A/B/C, B/C/A, C/A/B, A/B/C, …), so that no client always runs first
 * after the warm-up or always right after the same other client: the server's state (its heap,
 * its collections, its JIT) carries over from one client's process to the next, and a fixed
 * order would give that carry-over to the same client every time. It returns a new array.
 * @param {readonly string[]} clients
 * @param {number} round
 * @returns {string[]}
 */
export function roundOrder(clients, round) {
  if (!Number.isInteger(round) || round < 1) throw new RangeError(`roundOrder: round ${round} (want 1, 2, …)`);
  const k = (round - 1) % clients.length;
  return [...clients.slice(k), ...clients.slice(0, k)];
}
