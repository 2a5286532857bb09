// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {RelayStakeEscrow} from "contracts/RelayStakeEscrow.sol";

/// @notice Test-only: a stake sender that calls back into the escrow when paid, to show a
/// settlement cannot be repeated from inside the transfer, and can refuse payment outright.
contract ReentrantStaker {
    RelayStakeEscrow public immutable escrow;
    bytes32 public id;
    bool public refuse;
    uint256 public received;
    uint256 public payments;
    bool public reentryFailed;

    constructor(RelayStakeEscrow escrow_) {
        escrow = escrow_;
    }

    function stake(address recipient, bytes32 ref, uint40 deadline) external payable {
        id = escrow.deposit{value: msg.value}(recipient, ref, deadline);
    }

    function setRefuse(bool refuse_) external {
        refuse = refuse_;
    }

    receive() external payable {
        if (refuse) revert("refused");
        payments += 1;
        received += msg.value;
        // Try to be paid twice: refund the same stake again from inside its settlement.
        try escrow.refund(id) {} catch { reentryFailed = true; }
    }
}
