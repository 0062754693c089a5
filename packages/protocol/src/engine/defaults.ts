/** Idle timeout of an outgoing request when neither the engine nor the call sets one (DESIGN §3). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * Hard limit of an outgoing request that progress notifications cannot extend (spec: basic/lifecycle,
 * "Timeouts": implementations SHOULD always enforce a maximum timeout). Ten minutes: long enough for a
 * slow tool that reports progress, short enough that a peer streaming progress forever cannot pin the
 * request.
 */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;

/** `initialize` MUST NOT be cancelled (spec: basic/utilities/cancellation, "Behavior Requirements"). */
export const DEFAULT_UNCANCELLABLE_METHODS: readonly string[] = ['initialize'];
