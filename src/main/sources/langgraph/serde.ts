import { decode, ExtensionCodec } from '@msgpack/msgpack'

/**
 * LangGraph's serializer (`JsonPlusSerializer`) writes checkpoints as msgpack whose extension
 * types name a Python class and the arguments to rebuild it. Retrace never rebuilds anything:
 * each becomes plain data naming the class, and its arguments decoded the same way.
 */
export interface PythonObject {
  /** `module.ClassName`, e.g. `langchain_core.messages.ai.AIMessage`; null for an extension type Retrace does not know. */
  $class: string | null
  /** The msgpack extension type code it came in. */
  $ext: number
  /** Constructor arguments: a field map (keyword / pydantic), a list (positional), or one value. */
  $args: unknown
}

/** LangGraph's extension type codes (langgraph/checkpoint/serde/jsonplus.py). */
const EXT = {
  constructorSingleArg: 0,
  constructorPosArgs: 1,
  constructorKwArgs: 2,
  methodSingleArg: 3,
  pydanticV1: 4,
  pydanticV2: 5,
  numpyArray: 6
} as const
const KNOWN_EXT = new Set<number>(Object.values(EXT))

/** A value stored in a serialization Retrace will not read (pickle: reading it would mean running it). */
export class UnsupportedSerialization extends Error {}

/** Decodes one stored value; `unknownExt` collects extension codes never seen, for the import report. */
export function decodeStored(type: string | null, bytes: Uint8Array | null, unknownExt: Set<number> = new Set()): unknown {
  if (bytes === null || type === 'null' || type === null) return null
  switch (type) {
    case 'msgpack':
      return decode(bytes, { extensionCodec: codecCollecting(unknownExt) })
    case 'json':
      return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown
    case 'bytes':
    case 'bytearray':
      return Buffer.from(bytes)
    case 'pickle':
      throw new UnsupportedSerialization('it is stored as a Python pickle, which Retrace does not read (unpickling runs code); switch the saver to msgpack or JSON serialization to import it')
    default:
      throw new UnsupportedSerialization(`its serialization "${type}" is unknown`)
  }
}

/** Checkpoint metadata: JSON text in AsyncSqliteSaver databases, msgpack in newer savers. */
export function decodeMetadata(bytes: Uint8Array | null, unknownExt: Set<number> = new Set()): Record<string, unknown> {
  if (!bytes || bytes.length === 0) return {}
  const text = Buffer.from(bytes).toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(text) as unknown
  } catch {
    value = decode(bytes, { extensionCodec: codecCollecting(unknownExt) })
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

export function isPythonObject(value: unknown): value is PythonObject {
  return value !== null && typeof value === 'object' && '$ext' in value && '$class' in value
}

const codecs = new WeakMap<Set<number>, ExtensionCodec>()

function codecCollecting(unknownExt: Set<number>): ExtensionCodec {
  const known = codecs.get(unknownExt)
  if (known) return known
  const codec = new ExtensionCodec()
  codecs.set(unknownExt, codec)
  for (let type = 0; type <= 127; type++) {
    codec.register({
      type,
      encode: () => null,
      decode: (data) => {
        if (!KNOWN_EXT.has(type)) {
          unknownExt.add(type)
          return { $class: null, $ext: type, $args: null } satisfies PythonObject
        }
        return pythonObject(type, decode(data, { extensionCodec: codec }))
      }
    })
  }
  return codec
}

/** The payload is a tuple: (module, name, args[, method]) — numpy arrays carry dtype and shape instead. */
function pythonObject(type: number, payload: unknown): PythonObject {
  if (!Array.isArray(payload) || typeof payload[0] !== 'string') return { $class: null, $ext: type, $args: payload }
  const [module, name, args] = payload as [string, unknown, unknown]
  if (type === EXT.numpyArray) return { $class: 'numpy.ndarray', $ext: type, $args: { dtype: module, shape: name } }
  return { $class: typeof name === 'string' ? `${module}.${name}` : module, $ext: type, $args: args ?? null }
}
