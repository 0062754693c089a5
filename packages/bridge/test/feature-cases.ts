// The era-translation feature table: one row per feature, one column per direction. `pnpm --filter
// @x/bridge docs:features` renders it into docs/bridge.md; feature-table.test.ts runs every cell for
// real over a bridge (feature-runs.ts) and fails unless the outcome is exactly the cell's text, so the
// table says what the tests saw. Data only: scripts/feature-table.mjs reads this file without the test
// code. A cell: `✓ …` the feature works across the bridge (and how it crossed), `✗ …` what the
// downstream client gets instead.

/** A protocol revision the harness runs on one side of the bridge. */
export type Revision = '2024-11-05' | '2025-11-25' | '2026-07-28';

export interface Direction {
  readonly id: DirectionId;
  /** The column heading. */
  readonly label: string;
  /** The downstream client's revision (the host). */
  readonly downstream: Revision;
  /** The only revision the upstream server speaks. */
  readonly upstream: Revision;
}

export type DirectionId = 'legacy-to-modern' | 'modern-to-2024' | 'same-legacy' | 'same-modern';

export const DIRECTIONS: readonly Direction[] = [
  {
    id: 'legacy-to-modern',
    label: '2025-11-25 host → 2026-07-28-only server',
    downstream: '2025-11-25',
    upstream: '2026-07-28',
  },
  {
    id: 'modern-to-2024',
    label: '2026-07-28 client → 2024-11-05 server',
    downstream: '2026-07-28',
    upstream: '2024-11-05',
  },
  {
    id: 'same-legacy',
    label: 'same era: 2025-11-25 → 2025-11-25',
    downstream: '2025-11-25',
    upstream: '2025-11-25',
  },
  {
    id: 'same-modern',
    label: 'same era: 2026-07-28 → 2026-07-28',
    downstream: '2026-07-28',
    upstream: '2026-07-28',
  },
];

export type CaseId =
  | 'discover'
  | 'tools'
  | 'resources'
  | 'templates'
  | 'prompts'
  | 'completion'
  | 'logging'
  | 'progress'
  | 'cancellation'
  | 'elicitation'
  | 'input-required'
  | 'sampling'
  | 'roots'
  | 'list-changed'
  | 'resource-updated'
  | 'tasks';

export interface FeatureCase {
  readonly id: CaseId;
  /** The row heading (Markdown). */
  readonly feature: string;
  /** What the case does, for the table's last column. */
  readonly exercise: string;
  /** The outcome per direction, exactly as the case reports it. */
  readonly cells: Readonly<Record<DirectionId, string>>;
}

export const FEATURE_CASES: readonly FeatureCase[] = [
  {
    id: 'discover',
    feature: '`server/discover` ↔ `initialize`',
    exercise: "connect; `serverInfo` is the upstream's; the handshake methods on each hop",
    cells: {
      'legacy-to-modern': '✓ initialize → server/discover',
      'modern-to-2024': '✓ server/discover → server/discover + initialize',
      'same-legacy': '✓ initialize → server/discover + initialize',
      'same-modern': '✓ server/discover → server/discover',
    },
  },
  {
    id: 'tools',
    feature: 'tools',
    exercise: '`tools/list`, `tools/call` of an echo tool',
    cells: {
      'legacy-to-modern': '✓',
      'modern-to-2024': '✓',
      'same-legacy': '✓',
      'same-modern': '✓',
    },
  },
  {
    id: 'resources',
    feature: 'resources',
    exercise: '`resources/list`, `resources/read`',
    cells: {
      'legacy-to-modern': '✓',
      'modern-to-2024': '✓',
      'same-legacy': '✓',
      'same-modern': '✓',
    },
  },
  {
    id: 'templates',
    feature: 'resource templates',
    exercise: '`resources/templates/list`, `resources/read` of a templated URI',
    cells: {
      'legacy-to-modern': '✓',
      'modern-to-2024': '✓',
      'same-legacy': '✓',
      'same-modern': '✓',
    },
  },
  {
    id: 'prompts',
    feature: 'prompts',
    exercise: '`prompts/list`, `prompts/get`',
    cells: {
      'legacy-to-modern': '✓',
      'modern-to-2024': '✓',
      'same-legacy': '✓',
      'same-modern': '✓',
    },
  },
  {
    id: 'completion',
    feature: 'completion',
    exercise: '`completion/complete` of a prompt argument',
    cells: {
      'legacy-to-modern': '✓',
      'modern-to-2024': '✓',
      'same-legacy': '✓',
      'same-modern': '✓',
    },
  },
  {
    id: 'logging',
    feature: 'logging',
    exercise:
      'a tool logs at `info`; the host asked for `info` (`logging/setLevel`, or the `_meta` log level on 2026-07-28)',
    cells: {
      'legacy-to-modern': '✓ notifications/message',
      'modern-to-2024': '✓ notifications/message',
      'same-legacy': '✓ notifications/message',
      'same-modern': '✓ notifications/message',
    },
  },
  {
    id: 'progress',
    feature: 'progress',
    exercise: "a tool sends two progress updates; the host's `onprogress` sees both",
    cells: {
      'legacy-to-modern': '✓',
      'modern-to-2024': '✓',
      'same-legacy': '✓',
      'same-modern': '✓',
    },
  },
  {
    id: 'cancellation',
    feature: 'cancellation',
    exercise:
      "the host aborts a call in flight upstream; the upstream handler's signal fires (host hop → upstream hop)",
    cells: {
      'legacy-to-modern': '✓ notifications/cancelled → request stream closed',
      'modern-to-2024': '✓ request stream closed → notifications/cancelled',
      'same-legacy': '✓ notifications/cancelled → notifications/cancelled',
      'same-modern': '✓ request stream closed → request stream closed',
    },
  },
  {
    id: 'elicitation',
    feature: 'elicitation',
    exercise: 'a tool elicits (form), the host answers; how it crossed each hop (host hop ⇐ upstream hop)',
    cells: {
      'legacy-to-modern': '✓ elicitation/create request ⇐ input_required',
      'modern-to-2024': '✓ input_required ⇐ elicitation/create request',
      'same-legacy': '✓ elicitation/create request ⇐ elicitation/create request',
      'same-modern': '✓ input_required ⇐ input_required',
    },
  },
  {
    id: 'input-required',
    feature: '`input_required` ↔ server→client request',
    exercise: 'the elicitation case: how many times the upstream tool handler started',
    cells: {
      'legacy-to-modern': '✓ upstream tool handler ran 2×',
      'modern-to-2024': '✓ upstream tool handler ran 2×',
      'same-legacy': '✓ upstream tool handler ran 1×',
      'same-modern': '✓ upstream tool handler ran 2×',
    },
  },
  {
    id: 'sampling',
    feature: 'sampling',
    exercise: 'a tool asks `sampling/createMessage`, the host answers',
    cells: {
      'legacy-to-modern': '✓ sampling/createMessage request ⇐ input_required',
      'modern-to-2024': '✓ input_required ⇐ sampling/createMessage request',
      'same-legacy': '✓ sampling/createMessage request ⇐ sampling/createMessage request',
      'same-modern': '✓ input_required ⇐ input_required',
    },
  },
  {
    id: 'roots',
    feature: 'roots',
    exercise: 'a tool asks `roots/list`, the host answers',
    cells: {
      'legacy-to-modern': '✓ roots/list request ⇐ input_required',
      'modern-to-2024': '✓ input_required ⇐ roots/list request',
      'same-legacy': '✓ roots/list request ⇐ roots/list request',
      'same-modern': '✓ input_required ⇐ input_required',
    },
  },
  {
    id: 'list-changed',
    feature: 'list-changed',
    exercise:
      'the host listens for tool list changes (session notification, or `subscriptions/listen`); a tool is added upstream',
    cells: {
      'legacy-to-modern': '✓ session notification ⇐ subscriptions/listen',
      'modern-to-2024': '✓ subscriptions/listen ⇐ session notification',
      'same-legacy': '✓ session notification ⇐ session notification',
      'same-modern': '✓ subscriptions/listen ⇐ subscriptions/listen',
    },
  },
  {
    id: 'resource-updated',
    feature: 'resource-updated, subscriptions (`subscriptions/listen` ↔ `resources/subscribe`)',
    exercise:
      'the host subscribes to a resource (`resources/subscribe`, or `subscriptions/listen` with `resourceSubscriptions`); the upstream reports it updated',
    cells: {
      'legacy-to-modern': '✓ resources/subscribe → subscriptions/listen',
      'modern-to-2024': '✓ subscriptions/listen → resources/subscribe',
      'same-legacy': '✓ resources/subscribe → resources/subscribe',
      'same-modern': '✓ subscriptions/listen → subscriptions/listen',
    },
  },
  {
    id: 'tasks',
    feature: 'tasks',
    exercise:
      '`callToolInTask` of a tool with `taskSupport: optional` (upstream: `tasks` on); the task methods on each hop',
    cells: {
      'legacy-to-modern': '✗ -32600: The server does not support task-augmented tools/call',
      'modern-to-2024': '✓ plain tools/call → plain tools/call',
      'same-legacy': '✓ tools/call + tasks/get, tasks/result → tools/call + tasks/get, tasks/result',
      'same-modern': '✓ plain tools/call → tools/call + tasks/get',
    },
  },
];
