// Types of conformance-compare.mjs, for the test that imports it.
export declare const KNOWN_DIFFERENCES: Readonly<Record<string, string>>;
export declare const SIDES: ReadonlyArray<{ name: 'genuine' | 'compat'; nodeArgs: string[] }>;
export interface Side {
  outcomes: Map<string, boolean>;
  seconds: number;
  output: string;
}
export declare function compareConformance(options: {
  args: string[];
  outDir: string;
}): Promise<{ sides: { genuine: Side; compat: Side }; differing: string[] }>;
