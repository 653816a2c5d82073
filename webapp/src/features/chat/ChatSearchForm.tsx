import type { SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface ChatSearchFormProps {
  /** Stays put above a list that scrolls on its own. */
  fixed?: boolean;
  name?: string;
  value: string;
  maxLength: number;
  /** Also the box's accessible name. */
  placeholder: string;
  invalid?: boolean;
  /** A search is under way: the button waits. */
  busy: boolean;
  onChange: (value: string) => void;
  onSubmit: (event: SyntheticEvent<HTMLFormElement>) => void;
}

/** A search box with its Search button, as adding a friend and finding a group show it. */
export function ChatSearchForm({ fixed, name, value, maxLength, placeholder, invalid, busy, onChange, onSubmit }: ChatSearchFormProps) {
  const { t } = useTranslation();
  return (
    <form className={fixed ? 'chat-page__fixed chat-search-form' : 'chat-search-form'} onSubmit={onSubmit} noValidate>
      <input
        className="chat-input"
        type="search"
        name={name}
        value={value}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-label={placeholder}
        aria-invalid={invalid}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      <button type="submit" className="chat-small-button" disabled={busy}>
        {t('chat.addFriend.search')}
      </button>
    </form>
  );
}
