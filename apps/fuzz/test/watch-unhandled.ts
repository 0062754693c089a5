/** Collects unhandled rejections and uncaught exceptions while a fuzz file runs (asserted empty). */
export function watchUnhandled(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const record = (error: unknown) => errors.push(error);
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  return {
    errors,
    stop: () => {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    },
  };
}
