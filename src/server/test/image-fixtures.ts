import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";

const run = promisify(execFile);

/** A photo-like JPEG (a gradient with noise, so it compresses as a real one), `width` x `height`. */
export async function testJpeg(width = 1200, height = 900): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = (x * y) % 251;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * A camera-like JPEG (`width` x `height`, 12 megapixels by default): smooth shapes under sensor
 * noise, the same bytes every time, so it costs what a phone photo costs to decode and encode.
 */
export async function noisyPhoto(width = 4000, height = 3000): Promise<Buffer> {
  const pixels = new Uint8ClampedArray(width * height * 3);
  let seed = 1;
  const noise = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return (seed / 0x7fffffff - 0.5) * 40;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width + 40 * Math.sin(y / 37) + noise();
      pixels[i + 1] = (y * 255) / height + noise();
      pixels[i + 2] = 128 + 60 * Math.sin((x + y) / 90) + noise();
    }
  }
  return sharp(Buffer.from(pixels.buffer), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** `jpeg` with EXIF written by exiftool: a GPS position, a camera serial and an orientation. */
export async function withExif(jpeg: Buffer, orientation = 6): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "vmj-exif-"));
  try {
    const file = path.join(dir, "photo.jpg");
    await writeFile(file, jpeg);
    await run("exiftool", [
      "-overwrite_original",
      "-GPSLatitude=51.5007",
      "-GPSLatitudeRef=N",
      "-GPSLongitude=0.1246",
      "-GPSLongitudeRef=W",
      "-SerialNumber=CAM-SERIAL-4711",
      "-XMP-dc:Creator=Grandpa Joe",
      `-Orientation#=${orientation}`,
      file,
    ]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What exiftool reads of an image, tag name to value (`-j`), without the file-system fields. */
export async function exifTags(image: Buffer): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "vmj-exif-"));
  try {
    const file = path.join(dir, "photo");
    await writeFile(file, image);
    const { stdout } = await run("exiftool", ["-j", "-a", "-G1", file]);
    const [tags] = JSON.parse(stdout) as Record<string, unknown>[];
    return Object.fromEntries(
      Object.entries(tags ?? {}).filter(
        ([name]) =>
          !name.startsWith("System:") && !name.startsWith("ExifTool:") && name !== "SourceFile",
      ),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG of a few hundred bytes whose header claims `side` x `side`
 * pixels (its one compressed row of zeros would expand to gigabytes if decoded).
 */
export function pngBomb(side = 30_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.alloc(side * 3 + 1))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The first bytes of an iPhone HEIC photo (an ISO-BMFF `ftyp` box of brand `heic`), and more. */
export function heicHead(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypheic", 4, "latin1");
  ftyp.write("mif1heic", 16, "latin1");
  return Buffer.concat([ftyp, Buffer.alloc(2048, 7)]);
}
