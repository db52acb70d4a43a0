"""The MicroC part of the many-to-one integer program (``docs/type-level.md``).

MicroC F = Σ_c 2 U_c I_c / (U_c + |c|) / N*, with U_c = |z_c| (types reaching class c),
I_c = |z_c ∩ c| and N* = Σ_c U_c (Reichart, Abend and Rappoport 2010, §4.2). Both functions add
variables and rows to a :class:`metrics.measures.typelevel.exact_many_to_one` model (its
``lp`` builder, ``new_vars``, ``num``; x_kc and y_jc are its first variables):

* :func:`add_products`, the exact program: with q_c = U_c / (U_c + |c|) the class term is
  2 I_c q_c. A variable p = q_c v for every carrier v of class c (x_kc, or y_jc of a merged
  type), with the McCormick inequalities of a product of q_c ∈ [0, q̄_c] and v ∈ [0, 1]
  (p ≤ q_c, p ≤ q̄_c v, p ≥ q_c - q̄_c (1 - v): exact when v is 0 or 1), makes I_c q_c and
  q_c (U_c + |c|) ≤ U_c linear; the concave bound q_c ≤ U_c / (U_c + |c|) is also cut by its
  tangents (U_c is a variable of its own, so a tangent row has two entries). At integral x the
  program is the measure exactly, so branch and bound needs no other integer variable. Its LP
  bound lies 0.002-0.047 above hill climbing on UD EWT, but that LP takes 0.1-4 s a topic.
* :func:`add_binary_digits`, the quick bound of a zero time limit: with r_c = I_c / (U_c + |c|)
  the term is 2 I_c - 2 |c| r_c, and r_c (U_c + |c|) ≥ I_c is linear once U_c is written in
  binary digits and each product r_c β_cb is linearised (McCormick, exact for a binary β). Its
  LP takes hundredths of a second and lies 0.06-0.42 above hill climbing on UD EWT.
"""

from __future__ import annotations

import numpy as np

__all__ = ["add_products", "add_binary_digits", "TANGENT_STEPS", "TANGENT_GROWTH"]

#: Tangent points of U / (U + |c|) in the exact program: 0, 1, ..., STEPS - 1, then STEPS times
#: GROWTH^j up to the largest U_c; any set of tangents is valid, more make the relaxation tighter.
TANGENT_STEPS = 24
TANGENT_GROWTH = 1.1


def add_products(model, t, ksize: np.ndarray, w: np.ndarray, g_a: np.ndarray) -> None:
    """The exact program's MicroC part (module docstring): q_c, p = q_c · v for every carrier v
    (x_kc, y_jc) of class c with its McCormick rows, U_c, and the tangent cuts of
    q_c ≤ U_c / (U_c + |c|); the numerator Σ_c 2 I_c q_c."""
    n, nx, lp = model.n, model.nx, model.lp
    size = t.class_size.astype(float)
    n_g = g_a.shape[0]
    u_max = float(model.n_mono + model.mult.sum())
    q_max = u_max / (u_max + size)
    cls = np.arange(n)
    # carriers of class c: x_kc (k = 0..m-1), then y_jc (j = 0..n_g-1); shape (n, m + n_g)
    carrier = np.concatenate(((np.arange(model.m)[:, None] * n + cls[None, :]).T,
                              (nx + np.arange(n_g)[:, None] * n + cls[None, :]).T), axis=1)
    n_c = carrier.shape[1]
    a_size = np.tile(np.concatenate((ksize, model.mult)), (n, 1))  # weight in U_c
    a_int = np.concatenate((w.T, g_a.T * model.mult[None, :]), axis=1)  # weight in I_c
    q = model.new_vars(n, 0.0, q_max, False)
    prod = model.new_vars(n * n_c, 0.0, np.repeat(q_max, n_c), False).reshape(n, n_c)
    qc = np.repeat(q, n_c)
    qm = np.repeat(q_max, n_c)
    pf, cf = prod.reshape(-1), carrier.reshape(-1)
    rr = np.arange(pf.size)
    two, ones = np.concatenate((rr, rr)), np.ones(pf.size)
    lp.add(two, np.concatenate((pf, qc)), np.concatenate((ones, -ones)),
           -np.inf, 0.0, rr.size)  # p <= q
    lp.add(two, np.concatenate((pf, cf)), np.concatenate((ones, -qm)),
           -np.inf, 0.0, rr.size)  # p <= q_max v
    lp.add(np.concatenate((rr, rr, rr)), np.concatenate((pf, qc, cf)),
           np.concatenate((ones, -ones, -qm)), -qm, np.inf, rr.size)  # p >= q - q_max (1 - v)
    # U_c as a variable of its own (the tangent rows then have two entries each)
    u = model.new_vars(n, 0.0, u_max, False)
    row = np.repeat(cls, n_c + 1)
    cols = np.concatenate((u[:, None], carrier), axis=1)
    vals = np.concatenate((np.ones((n, 1)), -a_size), axis=1)
    lp.add(row, cols.reshape(-1), vals.reshape(-1), 0.0, 0.0, n)
    # q_c (U_c + |c|) <= U_c: Σ a p + |c| q - U_c <= 0
    row = np.repeat(cls, n_c + 2)
    cols = np.concatenate((prod, q[:, None], u[:, None]), axis=1)
    vals = np.concatenate((a_size, size[:, None], -np.ones((n, 1))), axis=1)
    lp.add(row, cols.reshape(-1), vals.reshape(-1), -np.inf, 0.0, n)
    # tangents of the concave φ_c(U) = U / (U + |c|): q_c <= φ(u) + φ'(u) (U_c - u)
    far = TANGENT_STEPS * TANGENT_GROWTH ** np.arange(
        int(np.log(max(u_max / TANGENT_STEPS, 1.0)) / np.log(TANGENT_GROWTH)) + 1)
    grid = np.unique(np.round(np.concatenate((np.arange(TANGENT_STEPS), far))))
    grid = grid[grid <= u_max]
    cu, gu = np.repeat(cls, grid.size), np.tile(grid, n)
    slope = size[cu] / (gu + size[cu]) ** 2
    n_t = cu.size
    lp.add(np.repeat(np.arange(n_t), 2), np.column_stack((q[cu], u[cu])).reshape(-1),
           np.column_stack((np.ones(n_t), -slope)).reshape(-1), -np.inf,
           gu / (gu + size[cu]) - slope * gu, n_t)
    # score numerator: Σ_c 2 I_c q_c = Σ 2 (weight in I_c) p
    model.num[pf] = 2 * a_int.reshape(-1)


def add_binary_digits(model, t, ksize: np.ndarray, w: np.ndarray, g_a: np.ndarray) -> None:
    """The quick bound's MicroC part (module docstring): r_c = I_c / (U_c + |c|), U_c in binary
    digits β_cb and z_cb = r_c β_cb; the numerator Σ_c 2 I_c - 2 |c| r_c."""
    m, n, nx, lp = model.m, model.n, model.nx, model.lp
    size = t.class_size.astype(float)
    u_max = model.n_mono + int(model.mult.sum())
    bits = max(1, int(u_max).bit_length())
    r = model.new_vars(n, 0.0, 0.5, False)
    beta = model.new_vars(n * bits, 0.0, 1.0, True)
    z = model.new_vars(n * bits, 0.0, 0.5, False)
    n_g = g_a.shape[0]
    cls = np.arange(n)
    x_idx = (np.arange(m)[:, None] * n + cls[None, :]).T  # (n, m)
    y_idx = (nx + np.arange(n_g)[:, None] * n + cls[None, :]).T  # (n, n_g)
    pw = 2.0 ** np.arange(bits)
    b_idx = beta.reshape(n, bits)
    z_idx = z.reshape(n, bits)
    # U_c = Σ_b 2^b β_cb
    cols = np.concatenate((b_idx, x_idx, y_idx), axis=1)
    vals = np.concatenate((np.tile(pw, (n, 1)), -np.tile(ksize, (n, 1)),
                           -np.tile(model.mult, (n, 1))), axis=1)
    lp.add(np.repeat(cls, cols.shape[1]), cols.reshape(-1), vals.reshape(-1), 0.0, 0.0, n)
    # Σ_b 2^b z_cb + |c| r_c - I_c >= 0
    ya = (g_a.T * model.mult[None, :])  # (n, n_g) weight of y_jc in I_c
    cols = np.concatenate((z_idx, r[:, None], x_idx, y_idx), axis=1)
    vals = np.concatenate((np.tile(pw, (n, 1)), size[:, None], -w.T, -ya), axis=1)
    lp.add(np.repeat(cls, cols.shape[1]), cols.reshape(-1), vals.reshape(-1), 0.0, np.inf, n)
    rc = np.repeat(r, bits)
    rr = np.arange(n * bits)
    two = np.concatenate((rr, rr))
    lp.add(two, np.concatenate((z, rc)), np.concatenate((np.ones(rr.size), -np.ones(rr.size))),
           -np.inf, 0.0, rr.size)  # z <= r
    lp.add(two, np.concatenate((z, beta)), np.concatenate((np.ones(rr.size),
                                                           np.full(rr.size, -0.5))),
           -np.inf, 0.0, rr.size)  # z <= β / 2
    three = np.concatenate((rr, rr, rr))
    lp.add(three, np.concatenate((z, rc, beta)),
           np.concatenate((np.ones(rr.size), -np.ones(rr.size), np.full(rr.size, -0.5))),
           -0.5, np.inf, rr.size)  # z >= r - (1 - β) / 2
    # score numerator: Σ_c 2 I_c - 2 |c| r_c
    model.num[:nx] += 2 * w.reshape(-1)
    model.num[nx:nx + n_g * n] += 2 * ya.T.reshape(-1)
    model.num[r] = -2 * size
