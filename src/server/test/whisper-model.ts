import { writeFile } from "node:fs/promises";

/**
 * Writes a Whisper model in whisper.cpp's ggml layout (the format of ggml-tiny.bin and
 * ggml-base.bin) with tiny dimensions and random weights: whisper.cpp loads it and runs the real
 * encoder and decoder, so loading, isolation, timeouts and crashes are real; the text is noise.
 *
 * Layout (whisper.cpp `whisper_model_load`): magic 'ggml', 11 int32 hyper-parameters, the mel
 * filter bank, the vocabulary, then every tensor as (n_dims, name length, type, dims, name, data).
 * The vocabulary size is the multilingual one (51865) so language detection runs as with `base`.
 */
export interface TestModelShape {
  /** Width of both encoder and decoder (tiny: 384); heads must divide it. */
  state: number;
  heads: number;
  audioLayers: number;
  textLayers: number;
}

const GGML_MAGIC = 0x67676d6c;
const N_VOCAB = 51865;
const N_AUDIO_CTX = 1500;
const N_TEXT_CTX = 448;
const N_MELS = 80;
const N_FFT = 201;
const F32 = 0;
const F16 = 1;

const DEFAULT_SHAPE: TestModelShape = { state: 64, heads: 2, audioLayers: 1, textLayers: 1 };

/** The published models' shapes (whisper.cpp's hyper-parameters for tiny and base). */
export const TINY_SHAPE: TestModelShape = { state: 384, heads: 6, audioLayers: 4, textLayers: 4 };
export const BASE_SHAPE: TestModelShape = { state: 512, heads: 8, audioLayers: 6, textLayers: 6 };

// Special token ids of the multilingual vocabulary.
const TOKEN_EOT = 50257;
const TOKEN_BEG = 50364;

/** A deterministic pseudo-random sequence (tests are repeatable). */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

const scratch = new Float32Array(1);
const scratchBits = new Uint32Array(scratch.buffer);
/** IEEE half-precision bits of `value` (small values only: no overflow handling needed). */
function toHalf(value: number): number {
  scratch[0] = value;
  const bits = scratchBits[0] ?? 0;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return sign;
  return sign | (exponent << 10) | ((bits >>> 13) & 0x3ff);
}

class Writer {
  private readonly chunks: Buffer[] = [];
  int32(...values: number[]): void {
    const b = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => {
      b.writeInt32LE(v, 4 * i);
    });
    this.chunks.push(b);
  }
  bytes(b: Buffer): void {
    this.chunks.push(b);
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/**
 * The model file's bytes. With `endAtOnce`, the decoder's output is made constant and its logits
 * favour a timestamp, then the end of text: each 30 s window costs the real encoder and two decoder
 * steps (the benchmark's measure of the fixed cost); random weights otherwise decode for long.
 */
export function testModelBytes(
  shape: TestModelShape = DEFAULT_SHAPE,
  seed = 42,
  options: { endAtOnce?: boolean } = {},
): Buffer {
  const next = random(seed);
  const w = new Writer();
  const s = shape.state;
  w.int32(GGML_MAGIC);
  // n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state,
  // n_text_head, n_text_layer, n_mels, ftype (1: large matrices in f16, as the published models)
  w.int32(N_VOCAB, N_AUDIO_CTX, s, shape.heads, shape.audioLayers, N_TEXT_CTX, s, shape.heads);
  w.int32(shape.textLayers, N_MELS, F16);

  // Mel filters: triangular bands over the FFT bins, as a real filter bank is.
  w.int32(N_MELS, N_FFT);
  const filters = new Float32Array(N_MELS * N_FFT);
  for (let m = 0; m < N_MELS; m++) {
    const centre = Math.round(((m + 1) * (N_FFT - 1)) / (N_MELS + 1));
    for (let k = Math.max(0, centre - 2); k <= Math.min(N_FFT - 1, centre + 2); k++) {
      filters[m * N_FFT + k] = 1 - Math.abs(k - centre) / 3;
    }
  }
  w.bytes(Buffer.from(filters.buffer));

  // Plain words for every text token (whisper.cpp names the special ones itself). It must hold
  // " " (id 220 in GPT-2's vocabulary): whisper.cpp looks it up to suppress blank output.
  const words = 50257;
  w.int32(words);
  const vocab: Buffer[] = [];
  for (let i = 0; i < words; i++) {
    const word = Buffer.from(i === 220 ? " " : ` w${i.toString(36)}`);
    const length = Buffer.alloc(4);
    length.writeInt32LE(word.length);
    vocab.push(length, word);
  }
  w.bytes(Buffer.concat(vocab));

  /** The decoder's final norm bias: with a zero weight, the decoder's output is exactly this. */
  const direction = Array.from({ length: s }, () => next() * 2 - 1);
  const norm2 = direction.reduce((sum, v) => sum + v * v, 0);
  /** Rows of the token embedding that get a chosen logit (`value` = logit) under `endAtOnce`. */
  const chosenLogits = new Map([
    [TOKEN_EOT, 30],
    [TOKEN_BEG, 29],
  ]);

  const tensor = (
    name: string,
    dims: number[],
    type = F32,
    scale = 0.05,
    offset = 0,
    value?: (index: number) => number | undefined,
  ) => {
    const count = dims.reduce((a, b) => a * b, 1);
    const nameBytes = Buffer.from(name);
    w.int32(dims.length, nameBytes.length, type);
    w.int32(...dims);
    w.bytes(nameBytes);
    if (type === F16) {
      const data = new Uint16Array(count);
      for (let i = 0; i < count; i++) {
        data[i] = toHalf(value?.(i) ?? offset + (next() * 2 - 1) * scale);
      }
      w.bytes(Buffer.from(data.buffer));
    } else {
      const data = new Float32Array(count);
      for (let i = 0; i < count; i++) data[i] = value?.(i) ?? offset + (next() * 2 - 1) * scale;
      w.bytes(Buffer.from(data.buffer));
    }
  };
  const norm = (prefix: string) => {
    tensor(`${prefix}.weight`, [s], F32, 0.1, 1);
    tensor(`${prefix}.bias`, [s], F32, 0.01);
  };
  const linear = (prefix: string, input: number, output: number, bias = true) => {
    tensor(`${prefix}.weight`, [input, output], F16);
    if (bias) tensor(`${prefix}.bias`, [output]);
  };
  const attention = (prefix: string) => {
    linear(`${prefix}.query`, s, s);
    linear(`${prefix}.key`, s, s, false);
    linear(`${prefix}.value`, s, s);
    linear(`${prefix}.out`, s, s);
  };
  const mlp = (prefix: string) => {
    norm(`${prefix}.mlp_ln`);
    linear(`${prefix}.mlp.0`, s, 4 * s);
    linear(`${prefix}.mlp.2`, 4 * s, s);
  };

  // Dimensions are ggml's order (innermost first), as convert-pt-to-ggml.py writes them.
  tensor("encoder.positional_embedding", [s, N_AUDIO_CTX]);
  tensor("encoder.conv1.weight", [3, N_MELS, s], F16);
  tensor("encoder.conv1.bias", [1, s]);
  tensor("encoder.conv2.weight", [3, s, s], F16);
  tensor("encoder.conv2.bias", [1, s]);
  for (let i = 0; i < shape.audioLayers; i++) {
    const p = `encoder.blocks.${i}`;
    mlp(p);
    norm(`${p}.attn_ln`);
    attention(`${p}.attn`);
  }
  norm("encoder.ln_post");

  tensor("decoder.positional_embedding", [s, N_TEXT_CTX]);
  tensor("decoder.token_embedding.weight", [s, N_VOCAB], F16, 0.05, 0, (i) => {
    const logit = options.endAtOnce ? chosenLogits.get(Math.floor(i / s)) : undefined;
    return logit === undefined ? undefined : (logit * (direction[i % s] ?? 0)) / norm2;
  });
  for (let i = 0; i < shape.textLayers; i++) {
    const p = `decoder.blocks.${i}`;
    mlp(p);
    norm(`${p}.attn_ln`);
    attention(`${p}.attn`);
    norm(`${p}.cross_attn_ln`);
    attention(`${p}.cross_attn`);
  }
  if (options.endAtOnce) {
    tensor("decoder.ln.weight", [s], F32, 0, 0);
    tensor("decoder.ln.bias", [s], F32, 0, 0, (i) => direction[i]);
  } else {
    norm("decoder.ln");
  }
  return w.toBuffer();
}

/** Writes a loadable test model to `file`. */
export async function writeTestModel(
  file: string,
  shape?: TestModelShape,
  options?: { endAtOnce?: boolean },
): Promise<void> {
  await writeFile(file, testModelBytes(shape, 42, options));
}
