// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title Refundable anti-spam stakes for a messenger relay (docs/protocol.md §13 Stakes).
/// @notice A sender locks a stake to reach a recipient who asks unknown senders for one.
/// The recipient releases it (back to the sender) or forfeits it as spam (to the recipient)
/// before the deadline; at or after the deadline anyone can refund it to the sender.
/// Immutable and owner-less: nobody but the two parties can move a stake, and only this way.
/// @dev Every settlement writes the new status before moving any ether, so a receiver that
/// calls back in finds the stake settled and reverts: no ReentrancyGuard is needed.
contract RelayStakeEscrow is EIP712 {
    struct Stake {
        address sender;
        uint96 amount;
        address recipient;
        uint40 deadline;
        uint8 status;
    }

    uint8 public constant NONE = 0;
    uint8 public constant ACTIVE = 1;
    uint8 public constant RELEASED = 2;
    uint8 public constant FORFEITED = 3;
    uint8 public constant REFUNDED = 4;

    /// @notice The longest a stake can be locked.
    uint256 public constant MAX_LOCK = 30 days;

    bytes32 private constant RELEASE_TYPEHASH = keccak256("Release(bytes32 id)");
    bytes32 private constant FORFEIT_TYPEHASH = keccak256("Forfeit(bytes32 id)");

    mapping(bytes32 id => Stake) public stakes;

    event Staked(bytes32 indexed id, address indexed sender, address indexed recipient, uint96 amount, uint40 deadline, bytes32 ref);
    event Settled(bytes32 indexed id, uint8 status, address to, uint96 amount);

    error ZeroAmount();
    error AmountTooLarge();
    error ZeroRecipient();
    error SelfStake();
    error BadDeadline();
    error StakeExists();
    error NotActive();
    error NotRecipient();
    error DeadlinePassed();
    error NotDue();
    error BadSignature();
    error TransferFailed();

    constructor() EIP712("RelayStakeEscrow", "1") {}

    /// @notice The id a deposit by `sender` would get: bound to this chain, this escrow, both
    /// parties and the relay's single-use ref, so a stake cannot be replayed elsewhere.
    function stakeId(address sender, address recipient, bytes32 ref) public view returns (bytes32) {
        return keccak256(abi.encode(block.chainid, address(this), sender, recipient, ref));
    }

    function deposit(address recipient, bytes32 ref, uint40 deadline) external payable returns (bytes32 id) {
        if (msg.value == 0) revert ZeroAmount();
        if (msg.value > type(uint96).max) revert AmountTooLarge();
        if (recipient == address(0)) revert ZeroRecipient();
        if (recipient == msg.sender) revert SelfStake();
        if (deadline <= block.timestamp || deadline > block.timestamp + MAX_LOCK) revert BadDeadline();
        id = stakeId(msg.sender, recipient, ref);
        if (stakes[id].status != NONE) revert StakeExists();
        stakes[id] = Stake(msg.sender, uint96(msg.value), recipient, deadline, ACTIVE);
        emit Staked(id, msg.sender, recipient, uint96(msg.value), deadline, ref);
    }

    /// @notice The recipient accepts: the stake goes back to the sender.
    function release(bytes32 id) external {
        _release(id, msg.sender);
    }

    /// @notice Anyone (usually the sender) submits the recipient's signed release.
    function releaseWithSig(bytes32 id, bytes calldata signature) external {
        Stake storage s = _active(id);
        _checkSignature(RELEASE_TYPEHASH, id, signature, s.recipient);
        _settle(id, s, RELEASED, s.sender);
    }

    /// @notice The recipient marks the sender as spam before the deadline: the stake is theirs.
    function forfeit(bytes32 id) external {
        _forfeit(id, msg.sender);
    }

    function forfeitWithSig(bytes32 id, bytes calldata signature) external {
        Stake storage s = _active(id);
        _checkSignature(FORFEIT_TYPEHASH, id, signature, s.recipient);
        _forfeitActive(id, s);
    }

    /// @notice At or after the deadline anyone can send an unsettled stake back to its sender.
    function refund(bytes32 id) external {
        Stake storage s = _active(id);
        if (block.timestamp < s.deadline) revert NotDue();
        _settle(id, s, REFUNDED, s.sender);
    }

    function _release(bytes32 id, address by) private {
        Stake storage s = _active(id);
        if (by != s.recipient) revert NotRecipient();
        _settle(id, s, RELEASED, s.sender);
    }

    function _forfeit(bytes32 id, address by) private {
        Stake storage s = _active(id);
        if (by != s.recipient) revert NotRecipient();
        _forfeitActive(id, s);
    }

    function _forfeitActive(bytes32 id, Stake storage s) private {
        if (block.timestamp >= s.deadline) revert DeadlinePassed();
        _settle(id, s, FORFEITED, s.recipient);
    }

    function _active(bytes32 id) private view returns (Stake storage s) {
        s = stakes[id];
        if (s.status != ACTIVE) revert NotActive();
    }

    /// @dev A signature for another chain, another escrow or another id recovers to some other
    /// address, so it fails here like a malformed one.
    function _checkSignature(bytes32 typehash, bytes32 id, bytes calldata signature, address recipient) private view {
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(_hashTypedDataV4(keccak256(abi.encode(typehash, id))), signature);
        if (err != ECDSA.RecoverError.NoError || signer != recipient) revert BadSignature();
    }

    function _settle(bytes32 id, Stake storage s, uint8 status, address to) private {
        uint96 amount = s.amount;
        s.status = status;
        emit Settled(id, status, to, amount);
        (bool ok, ) = to.call{value: amount}("");
        if (!ok) revert TransferFailed();
    }
}
