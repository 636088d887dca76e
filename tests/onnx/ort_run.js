// ONNX Runtime's side of tests/onnx/real_models.sh: runs MODEL on one input of SHAPE, the
// fixed pseudo-random sequence examples/onnx_run makes (MINSTD: s = s * 48271 mod 2^31 - 1,
// value s / 2^31 * 2 - 1), writes PREFIXin_0.bin and PREFIXout_<i>.bin (float32), and prints
// the median time of REPS runs after a first one (ONNX Runtime's default threads: one per core).
// With INPUT_FILE, the input is read from it (raw float32) instead.
//   node ort_run.js MODULES_DIR MODEL SHAPE PREFIX REPS [INPUT_FILE]
const [modules, model, shapeStr, prefix, repsStr, inputFile] = process.argv.slice(2);
const ort = require(modules + '/onnxruntime-node');
const fs = require('fs');
(async () => {
  const shape = shapeStr.split(',').map(Number);
  const n = shape.reduce((a, b) => a * b, 1);
  let data = new Float32Array(n);
  if (inputFile) {
    const b = fs.readFileSync(inputFile);
    if (b.length !== 4 * n) throw new Error(`${inputFile} holds ${b.length} bytes, not ${4 * n}`);
    data = new Float32Array(b.buffer, b.byteOffset, n);
  } else {
    let s = 12345;
    for (let i = 0; i < n; ++i) {
      s = (s * 48271) % 2147483647;  // below 2^53: exact in a double
      data[i] = (s / 2147483648) * 2 - 1;
    }
  }
  fs.writeFileSync(prefix + 'in_0.bin', Buffer.from(data.buffer));
  const session = await ort.InferenceSession.create(model);  // its default threads, as rill's
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, shape)};
  const times = [];
  let out;
  for (let r = 0; r <= Number(repsStr); ++r) {
    const t0 = process.hrtime.bigint();
    out = await session.run(feeds);
    if (r > 0) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  session.outputNames.forEach((name, i) => {
    const t = out[name];
    fs.writeFileSync(prefix + 'out_' + i + '.bin', Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  });
  console.log(`  ONNX Runtime: median of ${times.length} runs ${times[times.length >> 1].toFixed(3)} ms`);
})().catch((e) => { console.error(e); process.exit(1); });
