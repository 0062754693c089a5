// The five runs issue 8 asks for. Each has its own baseline file in ../../baselines/<name>.yml, because
// baseline entries are keyed by scenario and a scenario can pass on one wire and fail on the other.
export const LEGS = [
  { name: 'server-2025-11-25', mode: 'server', args: ['--requirements', '2025-11-25'] },
  { name: 'server-2026-07-28', mode: 'server', args: ['--requirements', '2026-07-28'] },
  { name: 'server-all', mode: 'server', args: ['--suite', 'all'] },
  { name: 'client-2025-11-25', mode: 'client', args: ['--requirements', '2025-11-25'] },
  { name: 'client-2026-07-28', mode: 'client', args: ['--requirements', '2026-07-28'] },
];
