import { EmptyState } from '../empty-state/EmptyState';
import { PageHeader } from './PageHeader';

interface MissingPageProps {
  /** The page's own title, so the header reads the same as when the page has what it needs. */
  title: string;
  /** Why there is nothing to show (the link named no user, group or conversation...). */
  message: string;
  className?: string;
}

/** A page opened without what it shows (a link missing its id): the header with a way back, and why. */
export function MissingPage({ title, message, className = 'chat-page' }: MissingPageProps) {
  return (
    <main className={className}>
      <PageHeader title={title} back />
      <EmptyState title={message} />
    </main>
  );
}
