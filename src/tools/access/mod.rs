//! Who may act where: owners and sharing, the check made where a call acts, where a call lands
//! for the permission gate, the paths a call may name, and the calls on ended sessions answered
//! before the gate.

pub(super) mod acting;
pub(super) mod ended_answers;
pub(super) mod expose;
pub(super) mod owners;
pub(super) mod paths;
pub(super) mod reach;
pub(super) mod share;
