// Types of conformance-compare.mjs, for the test that imports it.
export type ServerProgram = 'fixture' | 'fixture-web' | 'everything';
export declare const KNOWN_DIFFERENCES: Readonly<Record<ServerProgram, Readonly<Record<string, string>>>>;
export declare const SIDES: ReadonlyArray<{ name: 'genuine' | 'compat'; nodeArgs: string[] }>;
export interface Side {
  outcomes: Map<string, boolean>;
  seconds: number;
  output: string;
}
export declare function compareConformance(options: {
  server?: ServerProgram;
  args: string[];
  outDir: string;
}): Promise<{ sides: { genuine: Side; compat: Side }; differing: string[] }>;
