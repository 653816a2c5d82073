// Route /pages/chat/contacts: the screen lives with its feature.
export { ContactsPage } from '../../features/chat/contacts/ContactsPage';
