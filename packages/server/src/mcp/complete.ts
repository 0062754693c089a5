import { type CompleteRequestParams, type CompleteResult, ErrorCode, McpError } from '@x/protocol/core';
import { describeValue } from '../describe-value.js';
import type { PromptRegistry } from './prompt-registry.js';
import { type CompleteCallback, ownCompleter } from './resource-template.js';
import type { ResourceRegistry } from './resource-registry.js';

const MAX_VALUES = 100;

/**
 * `completion/complete` (spec: server/utilities/completion): the completer of the referenced prompt
 * argument or template variable, given the value typed so far and the other arguments (`context`).
 * An argument without a completer completes to nothing; an unknown prompt is -32602.
 */
export async function complete(
  params: CompleteRequestParams,
  registries: { prompts: PromptRegistry; resources: ResourceRegistry },
): Promise<CompleteResult> {
  const { ref, argument } = params;
  let completer: CompleteCallback | undefined;
  if (ref.type === 'ref/prompt') {
    const found = registries.prompts.completer(ref.name, argument.name);
    if (found === null)
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${describeValue(ref.name)}`);
    completer = found;
  } else {
    completer = ownCompleter(registries.resources.templateByUri(ref.uri)?.complete, argument.name);
  }
  if (completer === undefined) return { completion: { values: [], hasMore: false } };
  const values = await completer(argument.value, { arguments: params.context?.arguments });
  return {
    completion: {
      values: values.slice(0, MAX_VALUES),
      total: values.length,
      hasMore: values.length > MAX_VALUES,
    },
  };
}
