import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as schemas from '../src/schemas/index.js';
import { revisionMethods, revisionSchemas } from '../src/schemas/index.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../src/versions.js';
import { type JsonSchema, loadDefinitions, skeleton, topLevel } from './schemas-spec-helpers.js';

/**
 * Holds the zod schemas against the official JSON Schemas: every definition of every revision has
 * a zod schema of the same name whose skeleton (types, properties, `required`, unions, const/enum
 * values) equals the spec's; the everyday superset schemas cover every revision's properties.
 */

/** Definitions deliberately without a zod counterpart. None so far: keep it that way. */
const EXCLUDED: Record<string, readonly string[]> = {};

const toJson = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    cycles: 'ref',
    reused: 'inline',
  }) as JsonSchema;

const zodSkeleton = (schema: z.ZodType): unknown => {
  const json = toJson(schema);
  return skeleton(json, { ...(json['$defs'] as Record<string, unknown> | undefined), '#': json });
};

describe.each(SUPPORTED_PROTOCOL_VERSIONS)('revision %s', (version) => {
  const defs = loadDefinitions(version);
  const record: Readonly<Record<string, z.ZodType>> = revisionSchemas[version];
  const excluded = new Set(EXCLUDED[version] ?? []);

  it('has a zod schema for every definition, and no extra ones', () => {
    const expected = Object.keys(defs)
      .filter((name) => !excluded.has(name))
      .sort();
    expect(Object.keys(record).sort()).toEqual(expected);
  });

  it.each(Object.keys(defs).filter((name) => !excluded.has(name)))('%s matches schema.json', (name) => {
    const zod = record[name];
    expect(zod).toBeDefined();
    expect(zodSkeleton(zod as z.ZodType)).toEqual(skeleton(defs[name], defs));
  });

  it('superset schemas cover every property of this revision and require nothing it does not', () => {
    const all = schemas as unknown as Record<string, unknown>;
    const problems: string[] = [];
    for (const name of Object.keys(defs)) {
      const superset = all[`${name}Schema`];
      if (!(superset instanceof z.ZodType)) continue;
      const spec = topLevel(skeleton(defs[name], defs));
      const ours = topLevel(zodSkeleton(superset));
      for (const key of spec.properties) {
        // The JSON-RPC envelope is checked by `validateMessage`; loose schemas keep it.
        if (key === 'jsonrpc' || key === 'id') continue;
        if (!ours.properties.has(key)) problems.push(`${name}.${key} missing`);
      }
      for (const key of ours.required ?? []) {
        if (spec.required !== undefined && !spec.required.has(key))
          problems.push(`${name}.${key} over-required`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists the methods of the ClientRequest/ServerRequest/… unions', () => {
    const methodsOfUnion = (name: string): string[] => {
      const def = defs[name];
      if (def === undefined) return [];
      const variants = (def['anyOf'] as JsonSchema[] | undefined) ?? [def];
      return variants
        .map((variant) => {
          const ref = variant['$ref'];
          const target = typeof ref === 'string' ? defs[ref.slice(ref.lastIndexOf('/') + 1)] : variant;
          const method = (target?.['properties'] as Record<string, JsonSchema> | undefined)?.['method'];
          return method?.['const'] as string;
        })
        .sort();
    };
    const ours = revisionMethods[version];
    expect([...ours.clientRequests].sort()).toEqual(methodsOfUnion('ClientRequest'));
    expect([...ours.serverRequests].sort()).toEqual(methodsOfUnion('ServerRequest'));
    expect([...ours.clientNotifications].sort()).toEqual(methodsOfUnion('ClientNotification'));
    expect([...ours.serverNotifications].sort()).toEqual(methodsOfUnion('ServerNotification'));
    expect([...ours.inputRequests].sort()).toEqual(methodsOfUnion('InputRequest'));
  });
});

describe('drift detection', () => {
  const defs = loadDefinitions('2026-07-28');

  it('notices a required field made optional', () => {
    const loosened = z.looseObject({ content: z.array(z.unknown()).optional(), resultType: z.string() });
    expect(zodSkeleton(loosened)).not.toEqual(skeleton(defs['CallToolResult'], defs));
  });

  it('notices a dropped enum value', () => {
    const narrowed = z.enum(['debug', 'info']);
    expect(zodSkeleton(narrowed)).not.toEqual(skeleton(defs['LoggingLevel'], defs));
  });
});
