/**
 * JSON ↔ `google.protobuf.Struct` / `Value` as proto-loader represents them (`oneofs`; protobufjs's built-in
 * struct.proto names its fields in camelCase even with `keepCase`): a Struct is `{ fields: { key: Value } }`, a Value has exactly one of `nullValue`, `numberValue`,
 * `stringValue`, `boolValue`, `structValue`, `listValue` (and `kind` naming it).
 */
export interface ProtoValue {
  nullValue?: 'NULL_VALUE' | number;
  numberValue?: number;
  stringValue?: string;
  boolValue?: boolean;
  structValue?: ProtoStruct;
  listValue?: { values?: ProtoValue[] };
  kind?: string;
}

export interface ProtoStruct {
  fields?: Record<string, ProtoValue>;
}

/** A JSON object as a Struct. */
export function toStruct(object: Record<string, unknown>): ProtoStruct {
  const fields: Record<string, ProtoValue> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value !== undefined) fields[key] = toValue(value);
  }
  return { fields };
}

function toValue(value: unknown): ProtoValue {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(toValue) } };
  if (typeof value === 'object') return { structValue: toStruct(value as Record<string, unknown>) };
  return { nullValue: 'NULL_VALUE' };
}

/** A Struct as a JSON object (`undefined` stays `undefined`). */
export function fromStruct(struct: ProtoStruct | null | undefined): Record<string, unknown> | undefined {
  if (struct === null || struct === undefined) return undefined;
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(struct.fields ?? {})) object[key] = fromValue(value);
  return object;
}

function fromValue(value: ProtoValue): unknown {
  switch (value.kind) {
    case 'numberValue':
      return value.numberValue;
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'structValue':
      return fromStruct(value.structValue) ?? {};
    case 'listValue':
      return (value.listValue?.values ?? []).map(fromValue);
    default:
      return null;
  }
}
