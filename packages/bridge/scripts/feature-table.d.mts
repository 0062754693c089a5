import type { Direction, FeatureCase } from '../test/feature-cases.js';

export declare const CASES_PATH: string;
export declare const DOC_PATH: string;
export declare const BLOCK_NAME: 'bridge-features';
export declare function loadCases(): Promise<{
  DIRECTIONS: readonly Direction[];
  FEATURE_CASES: readonly FeatureCase[];
}>;
export declare function renderFeatureTable(cases: {
  DIRECTIONS: readonly Direction[];
  FEATURE_CASES: readonly FeatureCase[];
}): string;
export declare function renderBlock(doc: string, name: string, body: string): string;
export declare function renderDoc(doc?: string): Promise<string>;
