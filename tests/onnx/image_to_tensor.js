// An 8-bit RGB image (ImageMagick's `rgb:` raw output, rows of R,G,B bytes) as PaddleOCR's
// input: float32 [1, 3, H, W], normalized as its preprocessing does: `ocr` (recognition and
// direction: x / 255 * 2 - 1) or `imagenet` (detection: (x / 255 - mean) / std).
//   node image_to_tensor.js RGB_FILE WIDTH HEIGHT ocr|imagenet OUT_FILE
const fs = require('fs');
const [file, w, h, mode, out] = process.argv.slice(2);
const width = Number(w), height = Number(h);
const rgb = fs.readFileSync(file);
if (rgb.length !== width * height * 3) throw new Error(`${file}: ${rgb.length} bytes for ${width}x${height}`);
const mean = mode === 'imagenet' ? [0.485, 0.456, 0.406] : [0.5, 0.5, 0.5];
const std = mode === 'imagenet' ? [0.229, 0.224, 0.225] : [0.5, 0.5, 0.5];
const t = new Float32Array(3 * width * height);
for (let c = 0; c < 3; ++c) {
  for (let p = 0; p < width * height; ++p) t[c * width * height + p] = (rgb[p * 3 + c] / 255 - mean[c]) / std[c];
}
fs.writeFileSync(out, Buffer.from(t.buffer));
