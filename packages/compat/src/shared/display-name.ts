/**
 * The name to show for a tool, prompt or resource, as 1.x's `getDisplayName`: `title`, then a tool's
 * `annotations.title`, then `name`.
 *
 * @example
 * ```ts
 * getDisplayName({ name: 'get_weather', title: 'Weather' }); // 'Weather'
 * ```
 */
export function getDisplayName(metadata: {
  name: string;
  title?: string | undefined;
  annotations?: { title?: string | undefined } | undefined;
}): string {
  if (metadata.title !== undefined && metadata.title !== '') return metadata.title;
  const annotated = metadata.annotations?.title;
  if (annotated !== undefined && annotated !== '') return annotated;
  return metadata.name;
}
