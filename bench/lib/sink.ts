import { Writable } from "node:stream";

/** A stream that counts and drops what is written to it (a download's receiving end). */
export function sink(): { stream: Writable; bytes: () => number } {
  let bytes = 0;
  return {
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    }),
    bytes: () => bytes,
  };
}
