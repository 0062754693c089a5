/**
 * What a sampling, elicitation or roots handler knows about the request it answers.
 *
 * @example
 * ```ts
 * const sample: SamplingHandler = async (params, { signal }) => {
 *   const response = await fetch('https://llm.example/complete', {
 *     method: 'POST',
 *     body: JSON.stringify(params),
 *     signal,
 *   });
 *   return { role: 'assistant', content: { type: 'text', text: await response.text() }, model: 'example-1' };
 * };
 * ```
 */
export interface InputContext {
  /** Aborted when the server cancels the request (legacy) or the originating request is abandoned. */
  readonly signal: AbortSignal;
}
