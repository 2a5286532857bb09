/** The catalogue's messages behind format.ts. */
import { defineMessages } from 'react-intl';

export const formatMessages = defineMessages({
  today: {
    id: 'format.day.today',
    defaultMessage: 'Today',
    description: 'Day divider in a conversation: messages sent today.',
  },
  yesterdayDay: {
    id: 'format.day.yesterday',
    defaultMessage: 'Yesterday',
    description: 'Day divider in a conversation: messages sent yesterday.',
  },
  yesterday: {
    id: 'format.listTime.yesterday',
    defaultMessage: 'Yesterday',
    description: 'Short time in a list (conversations, keys): the item is from yesterday.',
  },
  amount: {
    id: 'format.amount',
    defaultMessage: '{value} {currency}',
    description:
      'An amount of a currency, e.g. “0.05 ETH”; value is already formatted, currency is a ticker such as ETH.',
  },
  bytes: {
    id: 'format.size.bytes',
    defaultMessage: '{count, plural, one {# byte} other {# bytes}}',
    description: 'A file size under 1 KB.',
  },
  kilobytes: {
    id: 'format.size.kilobytes',
    defaultMessage: '{size} KB',
    description: 'A file size in kilobytes (1024 bytes); size is already formatted.',
  },
  megabytes: {
    id: 'format.size.megabytes',
    defaultMessage: '{size} MB',
    description: 'A file size in megabytes (1024 × 1024 bytes); size is already formatted.',
  },
  recipientFullGroup: {
    id: 'format.refusal.recipientFullGroup',
    defaultMessage:
      "Not delivered: a member's inbox on the relay is full, so nobody in the group got it. Try again later.",
    description: 'Under a group message the relay refused because one member’s inbox is full.',
  },
  recipientFull: {
    id: 'format.refusal.recipientFull',
    defaultMessage: "Not delivered: {name}'s inbox is full. Try again later.",
    description:
      'Under a message the relay refused because the recipient’s inbox is full; name is a handle or short address.',
  },
  requestsFull: {
    id: 'format.refusal.requestsFull',
    defaultMessage:
      'Not delivered: {name} has too many contact requests waiting on the relay. Try again later; once they accept you, your messages always get through.',
    description: 'Under a contact request the relay refused because the recipient has too many requests waiting.',
  },
  tooManyPending: {
    id: 'format.refusal.tooManyPending',
    defaultMessage: 'Not delivered: {name} has not yet picked up your earlier requests. Wait until they answer.',
    description: 'Under a request refused because earlier requests to the same person are unanswered.',
  },
  storageFull: {
    id: 'format.refusal.storageFull',
    defaultMessage: 'Not delivered: the relay is running out of disk space. Try again later, or tell whoever runs it.',
    description: 'Under a message the relay refused for lack of disk space.',
  },
  safetyChanged: {
    id: 'format.refusal.safetyChanged',
    defaultMessage:
      "Not sent: {name}'s devices changed since you verified their safety number. Verify it again, or send anyway.",
    description: 'Under a message held back because the contact’s devices changed after verification.',
  },
  notAMember: {
    id: 'format.refusal.notAMember',
    defaultMessage: 'Not sent: you are no longer a member of this group.',
    description: 'Under a group message that failed because one was removed from the group (no Retry is offered).',
  },
  notSentBecause: {
    id: 'format.note.notSentBecause',
    defaultMessage: 'Not sent: {error}',
    description: 'Under a failed message; error is a sentence saying why.',
  },
  notSent: {
    id: 'format.note.notSent',
    defaultMessage: 'Not sent.',
    description: 'Under a failed message whose reason is unknown.',
  },
  sentAsRequest: {
    id: 'format.note.sentAsRequest',
    defaultMessage: 'Sent as a contact request: {name} sees it under Requests and can accept you there.',
    description: 'Under a first message to someone who has not accepted you yet.',
  },
  blocked: {
    id: 'format.note.blocked',
    defaultMessage: 'Not delivered: {name} is not accepting messages from you.',
    description: 'Under a message to someone who blocked you.',
  },
  stakeGate: {
    id: 'format.note.stakeGate',
    defaultMessage: 'Not delivered: {name} asks for a refundable {stake} stake from new contacts.',
    description: 'Under a message to someone who asks strangers for a stake; stake is an amount such as “0.01 ETH”.',
  },
  requestNotSentBecause: {
    id: 'format.request.notSentBecause',
    defaultMessage: 'Request not sent: {error}',
    description: 'After sending a contact request failed; error is a sentence saying why.',
  },
  requestNotSent: {
    id: 'format.request.notSent',
    defaultMessage: 'Request not sent.',
    description: 'After sending a contact request failed for an unknown reason.',
  },
  requestWaiting: {
    id: 'format.request.waiting',
    defaultMessage: 'Request to {name} is waiting to be sent; it goes out as soon as the relay can be reached.',
    description: 'After a contact request was written while offline.',
  },
  requestStakeGate: {
    id: 'format.request.stakeGate',
    defaultMessage:
      'Not delivered: {name} only accepts people they know or who pay a stake ({stake}). Open the conversation to pay the stake and send.',
    description:
      'After a contact request to someone who asks strangers for a stake; stake is an amount such as “0.01 ETH”.',
  },
  requestInbox: {
    id: 'format.request.inbox',
    defaultMessage: '{name} already knows you: your message went straight to their inbox.',
    description: 'After a contact request to someone who had already accepted you.',
  },
  requestSent: {
    id: 'format.request.sent',
    defaultMessage: 'Request sent to {name}.',
    description: 'After a contact request was queued for the recipient.',
  },
  noMessagesYet: {
    id: 'format.preview.noMessages',
    defaultMessage: 'No messages yet',
    description: 'Preview line of a group without messages in the conversation list.',
  },
  sayHello: {
    id: 'format.preview.sayHello',
    defaultMessage: 'Say hello',
    description: 'Preview line of a new conversation without messages.',
  },
  deleted: {
    id: 'format.preview.deleted',
    defaultMessage: 'Message deleted',
    description: 'Preview line in the conversation list when the newest message was deleted by its author.',
  },
  timerChanged: {
    id: 'format.preview.timerChanged',
    defaultMessage: 'Disappearing messages changed',
    description:
      'Preview line in the conversation list when the newest event is a change of the disappearing-messages timer.',
  },
  file: {
    id: 'format.preview.file',
    defaultMessage: 'File',
    description: 'Preview line when the last message is only a file.',
  },
  fromMe: {
    id: 'format.preview.fromMe',
    defaultMessage: 'You: {text}',
    description: 'Preview line of a conversation whose last message you sent; text is its beginning.',
  },
});
