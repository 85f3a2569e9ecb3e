"""Leak: the second model early-stops on the test rows, labelled by the first model (pseudo labels)."""

import os
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split

train = pd.read_csv("./input/train.csv")
test = pd.read_csv("./input/test.csv")
features = ["x1", "x2"]
X_tr, X_va, y_tr, y_va = train_test_split(train[features], train["y"], test_size=0.2, random_state=0)
first = lgb.LGBMClassifier(n_estimators=50, verbose=-1).fit(X_tr, y_tr)
pseudo = first.predict(test[features])
model = lgb.LGBMClassifier(n_estimators=500, verbose=-1)
model.fit(X_tr, y_tr, eval_set=[(test[features], pseudo)], callbacks=[lgb.early_stopping(20, verbose=False)])
acc = accuracy_score(y_va, model.predict(X_va))
print(f"validation accuracy: {acc:.4f}")
os.makedirs("submission", exist_ok=True)
Path("submission/eval_metric.txt").write_text(str(acc))
pd.DataFrame({"id": test["id"], "y": model.predict(test[features]).astype(np.int64)}).to_csv(
    "submission/submission.csv", index=False
)
