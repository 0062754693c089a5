import { isPlainCallToolResult, isPlainDiscoverResult, isPlainInitializeResult } from '../fast-check.js';
// TEMPORARY STUB (lead's branch): replaced by the generated file. Every check refuses (slow path).

export const isInitializeResult = isPlainInitializeResult;
export const isDiscoverResult = isPlainDiscoverResult;
export function isResult(_value: unknown): boolean {
  return false;
}
export function isListToolsResult(_value: unknown): boolean {
  return false;
}
export const isCallToolResult = isPlainCallToolResult;
export function isListPromptsResult(_value: unknown): boolean {
  return false;
}
export function isGetPromptResult(_value: unknown): boolean {
  return false;
}
export function isListResourcesResult(_value: unknown): boolean {
  return false;
}
export function isListResourceTemplatesResult(_value: unknown): boolean {
  return false;
}
export function isReadResourceResult(_value: unknown): boolean {
  return false;
}
export function isCompleteResult(_value: unknown): boolean {
  return false;
}
export function isSubscriptionsListenResult(_value: unknown): boolean {
  return false;
}
export function isGetTaskResult(_value: unknown): boolean {
  return false;
}
export function isGetTaskPayloadResult(_value: unknown): boolean {
  return false;
}
export function isCancelTaskResult(_value: unknown): boolean {
  return false;
}
export function isListTasksResult(_value: unknown): boolean {
  return false;
}
export function isCreateTaskResult(_value: unknown): boolean {
  return false;
}
export function isCreateTaskHandle(_value: unknown): boolean {
  return false;
}
export function isDetailedTask(_value: unknown): boolean {
  return false;
}
export function isInputRequiredResult(_value: unknown): boolean {
  return false;
}
export function isCreateMessageRequestParams(_value: unknown): boolean {
  return false;
}
export function isElicitRequestParams(_value: unknown): boolean {
  return false;
}
export function isListRootsRequestParams(_value: unknown): boolean {
  return false;
}
export function isNotificationParams(_value: unknown): boolean {
  return false;
}
export function isResourceUpdatedNotificationParams(_value: unknown): boolean {
  return false;
}
export function isSubscriptionsAcknowledgedNotificationParams(_value: unknown): boolean {
  return false;
}
export function isLoggingMessageNotificationParams(_value: unknown): boolean {
  return false;
}
export function isElicitationCompleteNotificationParams(_value: unknown): boolean {
  return false;
}
export function isTaskStatusNotificationParams(_value: unknown): boolean {
  return false;
}
export function isCancelledNotificationParams(_value: unknown): boolean {
  return false;
}
export function isProgressNotificationParams(_value: unknown): boolean {
  return false;
}
