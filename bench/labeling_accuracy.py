"""Offline task-labelling accuracy on real competition descriptions.

Usage: python bench/labeling_accuracy.py SHARED_DATA_DIR [--embedder minilm]

For every folder in SHARED_DATA_DIR/competitions, the offline labeller (automind.retrieval.labeler)
labels the task from its description.md and the metric named in config.yaml. The folders hold no
data, so the data-modality signals of a real run are absent here: this measures the text-only path.
The expected top-level category of each competition was written by hand from its description and the
taxonomy definitions (knowledge/taxonomy.yaml); it is listed below and must not be tuned per item.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

CV, NLP, SIG, SEQ = (
    "Computer Vision",
    "Natural Language Processing",
    "Signal Processing",
    "Sequential Modeling",
)
GRAPH, GML = "Graph Learning", "General Machine Learning"

EXPECTED: dict[str, str] = {
    "AI4Code": NLP,  # order markdown cells relative to code cells: language understanding of notebooks
    "aerial-cactus-identification": CV,
    "alaska2-image-steganalysis": CV,  # hidden data in JPEG images; the input is images
    "billion-word-imputation": NLP,
    "bms-molecular-translation": CV,  # OCR of chemical structure images into InChI strings
    "cassava-leaf-disease-classification": CV,
    "cdiscount-image-classification-challenge": CV,
    "chaii-hindi-and-tamil-question-answering": NLP,
    "champs-scalar-coupling": GRAPH,  # coupling constants between atom pairs of molecules
    "dogs-vs-cats-redux-kernels-edition": CV,
    "facebook-recruiting-iii-keyword-extraction": NLP,
    "google-research-identify-contrails-reduce-global-warming": CV,
    "herbarium-2020-fgvc7": CV,
    "herbarium-2021-fgvc8": CV,
    "herbarium-2022-fgvc9": CV,
    "histopathologic-cancer-detection": CV,
    "hms-harmful-brain-activity-classification": SIG,  # EEG recordings
    "hotel-id-2021-fgvc8": CV,
    "hubmap-kidney-segmentation": CV,
    "icecube-neutrinos-in-deep-ice": SIG,  # detector sensor pulses over time
    "imet-2020-fgvc7": CV,
    "inaturalist-2019-fgvc6": CV,
    "invasive-species-monitoring": CV,
    "iwildcam-2019-fgvc6": CV,
    "iwildcam-2020-fgvc7": CV,
    "jigsaw-unintended-bias-in-toxicity-classification": NLP,
    "leaf-classification": CV,  # leaf images plus features extracted from them
    "learning-agency-lab-automated-essay-scoring-2": NLP,
    "ml2021spring-hw2": SIG,  # framewise phoneme classification of TIMIT speech features
    "movie-review-sentiment-analysis-kernels-only": NLP,
    "multi-modal-gesture-recognition": CV,  # gesture recognition from Kinect video (taxonomy: CV/Gesture)
    "nfl-player-contact-detection": CV,  # contact events in sports video (taxonomy: CV/Video Analysis)
    "osic-pulmonary-fibrosis-progression": SEQ,  # FVC decline over weeks, Laplace log likelihood
    "paddy-disease-classification": CV,
    "petfinder-pawpularity-score": CV,  # pet photos (plus a few metadata flags)
    "plant-pathology-2020-fgvc7": CV,
    "plant-pathology-2021-fgvc8": CV,
    "plant-seedlings-classification": CV,
    "playground-series-s3e18": GML,
    "ranzcr-clip-catheter-line-classification": CV,
    "rsna-2022-cervical-spine-fracture-detection": CV,
    "rsna-breast-cancer-detection": CV,
    "rsna-miccai-brain-tumor-radiogenomic-classification": CV,
    "seti-breakthrough-listen": SIG,  # radio telescope signals as spectrograms
    "siim-covid19-detection": CV,
    "siim-isic-melanoma-classification": CV,
    "smartphone-decimeter-2022": SEQ,  # GNSS trajectories (taxonomy: Sequential/Trajectory Prediction)
    "spaceship-titanic": GML,
    "stanford-covid-vaccine": SEQ,  # per-position degradation along RNA sequences
    "tabular-playground-series-dec-2021": GML,
    "tensorflow2-question-answering": NLP,
    "text-normalization-challenge-russian-language": NLP,
    "the-icml-2013-whale-challenge-right-whale-redux": SIG,  # audio clips of whale up-calls
    "tweet-sentiment-extraction": NLP,
    "vesuvius-challenge-ink-detection": CV,  # ink masks on 3D X-ray scan slices
    "whale-categorization-playground": CV,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shared", type=Path, help="the shared data folder (holds competitions/)")
    ap.add_argument("--embedder", default="minilm")
    args = ap.parse_args()
    comp_dir = args.shared / "competitions"
    if not comp_dir.is_dir():
        sys.exit(f"{comp_dir} not found: pass the folder that contains competitions/")

    from automind.ingest.labeling import label_text
    from automind.knowledge import load_taxonomy
    from automind.retrieval.labeler import Weights, label_offline
    from automind.store import get_embedder

    taxonomy = load_taxonomy()
    t0 = time.perf_counter()
    embedder = get_embedder(args.embedder)
    load_s = time.perf_counter() - t0
    folders = sorted(p for p in comp_dir.iterdir() if (p / "description.md").is_file())
    missing = [p.name for p in folders if p.name not in EXPECTED]
    if missing:
        sys.exit(f"no expected category written for: {', '.join(missing)}")

    items = []
    for folder in folders:
        text = (folder / "description.md").read_text(encoding="utf-8", errors="replace")
        cfg = (
            yaml.safe_load((folder / "config.yaml").read_text()) if (folder / "config.yaml").is_file() else {}
        )
        items.append((folder, text, ((cfg or {}).get("grader") or {}).get("name")))

    top1 = top3 = 0
    confusions = []
    times = []
    memo = _Memo(embedder)
    for folder, text, metric in items:
        t = time.perf_counter()
        labels = label_offline(text, memo, taxonomy, analysis=None, metric=metric)
        times.append(time.perf_counter() - t)
        tops = [lb.top for lb in labels]
        want = EXPECTED[folder.name]
        top1 += tops[0] == want
        top3 += want in tops[:3]
        if tops[0] != want:
            got = ", ".join(f"{lb.top} {lb.score:.2f}" for lb in labels)
            confusions.append(f"  {folder.name}: expected {want}; got {got}")

    n = len(folders)
    print(f"offline labeller ({embedder.name}), text only: description.md + metric; no data in the folders")
    print(f"competitions: {n}")
    print(f"top-1 accuracy: {top1}/{n} = {top1 / n:.1%}  (target >= 80%)")
    print(f"top-3 accuracy: {top3}/{n} = {top3 / n:.1%}")
    times.sort()
    print(f"labelling time per task: median {times[n // 2] * 1000:.0f} ms (embedder load {load_s:.1f} s)")
    print("confusions (top-1 wrong):" if confusions else "confusions: none")
    print("\n".join(confusions))

    # Ablation on the same embeddings: what each kind of evidence gives on its own.
    for name, weights in (("embedding only", Weights(cues=0.0)), ("cue words only", Weights(embedding=0.0))):
        hits1 = hits3 = 0
        for folder, text, metric in items:
            tops = [lb.top for lb in label_offline(text, memo, taxonomy, metric=metric, weights=weights)]
            hits1 += tops[0] == EXPECTED[folder.name]
            hits3 += EXPECTED[folder.name] in tops
        print(f"ablation, {name}: top-1 {hits1 / n:.1%}, top-3 {hits3 / n:.1%}")
    # Baseline: the ingest labeller for single chunks (first 4000 characters, one embedding).
    hits1 = hits3 = 0
    for folder, text, _ in items:
        tops = [lb.top for lb in label_text(text, embedder, taxonomy, top_k=3)]
        hits1 += tops[0] == EXPECTED[folder.name]
        hits3 += EXPECTED[folder.name] in tops
    print(
        f"baseline, ingest.labeling.label_text on the raw description: top-1 {hits1 / n:.1%}, top-3 {hits3 / n:.1%}"
    )


class _Memo:
    """Caches embeddings by text so the ablation re-uses the vectors of the main pass."""

    def __init__(self, inner):
        self.inner, self.name, self.dim, self.cache = inner, inner.name, inner.dim, {}

    def embed(self, texts):
        import numpy as np

        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            self.cache.update(zip(todo, self.inner.embed(todo), strict=True))
        return np.stack([self.cache[t] for t in texts]) if texts else self.inner.embed([])


if __name__ == "__main__":
    main()
