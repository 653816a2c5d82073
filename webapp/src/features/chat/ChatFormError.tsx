import { useTranslation } from 'react-i18next';
import { chatErrorText } from './data/errors';

/**
 * The line under a chat form, always there so the form does not jump: what the form still
 * needs (`required`, when it does), else why the server refused it, else nothing.
 */
export function ChatFormError({ required, error }: { required: string | null; error: unknown }) {
  const { t } = useTranslation();
  return (
    <p className="chat-form-error" role="alert">
      {required ?? (error ? chatErrorText(error, t) : '')}
    </p>
  );
}
