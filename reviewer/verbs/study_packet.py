"""``study packet`` and ``study join``: a rater's share of a study, to and from their machine.

Handlers only (registered by :mod:`reviewer.verbs.study`); heavy imports stay inside them.
"""

from __future__ import annotations

import argparse
import sys

from reviewer.commands.verbs import CommandError, UsageError


def run_packet(args: argparse.Namespace) -> int:
    """Write and sign one rater's packet."""
    from reviewer.commands.key_verbs import load_key
    from reviewer.commands.store_option import open_store
    from reviewer.gold.envelope import GoldError
    from reviewer.gold.facade import GoldStore
    from reviewer.gold.feedback import feedback_for
    from reviewer.gold.service import packet_scope
    from reviewer.store import StoreError
    from reviewer.studies.packet import PacketError, PacketQualification, write_packet

    with open_store(args, GoldStore, create=False) as store:
        try:
            owner = store.get_study(args.name).owner
            if owner is None:
                raise CommandError(f"study {args.name!r} has no owner to sign its packets")
            key = load_key(owner, args.passphrase_file)
            scope = packet_scope(store, args.name, args.rater)
            feedback = feedback_for(store, args.name, args.rater)
            qualification = None
            if scope is not None:
                qualification = PacketQualification(runs=scope[0], qualified=scope[1])
            path = write_packet(
                store, args.name, args.rater, key, args.out,
                qualification=qualification, feedback=feedback,
            )  # fmt: skip
        except (StoreError, PacketError, GoldError) as exc:
            raise CommandError(str(exc)) from None
    note = f"; the references of {len(feedback)} submitted gold run(s)" if feedback else ""
    if qualification is not None and not qualification.qualified:
        note += f"; {args.rater} has not qualified: the qualification set only"
    print(f"wrote {path} (signed by {owner}, key {key.fingerprint}){note}")
    return 0


def run_join(args: argparse.Namespace) -> int:
    """Verify, import, and show the rater's queue."""
    from reviewer.commands.store_option import open_store
    from reviewer.gold import feedback
    from reviewer.gold.envelope import GoldError
    from reviewer.gold.facade import GoldStore
    from reviewer.sheets.keys import KeyStoreError
    from reviewer.sheets.trust import load_trust_file
    from reviewer.store import StoreError
    from reviewer.studies.packet import PacketError, join_packet

    trusted = None
    if args.trust is not None:
        try:
            trusted = load_trust_file(args.trust)
        except KeyStoreError as exc:
            raise UsageError(str(exc)) from None

    with open_store(args, GoldStore, create=True) as store:
        try:
            # Feedback not signed by the packet's owner refuses the packet before any import.
            payload, study, report = join_packet(
                store, args.folder, trusted=trusted,
                check=lambda p: feedback.check_signers(p.feedback, p.owner.fingerprint),
            )  # fmt: skip
            received = feedback.receive(store, study.name, payload.rater, payload.feedback)
        except (StoreError, PacketError, GoldError) as exc:
            raise CommandError(f"{args.folder}: {exc}" if isinstance(exc, GoldError)
                               else str(exc)) from None  # fmt: skip
        queue = store.list_runs(study=study.name, rater=payload.rater)
    print(
        f"joined study {study.name} ({study.protocol}) as {payload.rater}, "
        f"owner {payload.owner.name} ({payload.owner.fingerprint}); import: {report.summary()}"
    )
    from reviewer.tabular import cell

    for row in queue:
        arm = "  (scorer shown first)" if row.reveal_first else ""
        print(f"  {row.position:>3}  {cell(row.run_id)}{arm}")  # run ids come from files
    if received.stored:
        print(f"feedback: the references of {received.stored} gold run(s) you submitted "
              "(Rating -> Gold reference... in the window)")  # fmt: skip
    for run in received.held_back:
        print(f"feedback for run {cell(run)} held back: not submitted here", file=sys.stderr)
    return 0
