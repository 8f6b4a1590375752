// The form anchor: bare React Hook Form with the twenty fields of the benchmark's Application (the
// same labels, input types and constraints), default options, no UI kit. It posts to the same API.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useForm } from 'react-hook-form';
import './form.css';

const FIELDS = [
  ['summary', 'Summary', 'text', { maxLength: 200 }],
  ['firstName', 'First name', 'text', { required: true, maxLength: 80 }],
  ['lastName', 'Last name', 'text', { required: true, maxLength: 80 }],
  ['email', 'Email', 'email', { required: true }],
  ['phone', 'Phone', 'tel', {}],
  ['website', 'Website', 'url', {}],
  ['company', 'Company', 'text', { maxLength: 120 }],
  ['jobTitle', 'Job title', 'text', { maxLength: 120 }],
  ['street', 'Street', 'text', { maxLength: 120 }],
  ['city', 'City', 'text', { maxLength: 80 }],
  ['postcode', 'Postcode', 'text', { maxLength: 12, pattern: /^[0-9A-Z -]{3,12}$/ }],
  ['country', 'Country', 'select', { required: true }, ['CH', 'DE', 'FR', 'IT', 'AT', 'NL', 'BE', 'other']],
  ['employees', 'Employees', 'number', { min: 1, max: 1000000 }],
  ['revenue', 'Revenue', 'number', { min: 0, max: 100000000 }],
  ['share', 'Share', 'number', { min: 0, max: 100 }],
  ['startsOn', 'Starts on', 'date', { min: '2024-01-01' }],
  ['callAt', 'Call at', 'time', {}],
  ['newsletter', 'Newsletter', 'checkbox', {}],
  ['priority', 'Priority', 'select', {}, ['low', 'normal', 'high']],
  ['notes', 'Notes', 'textarea', { maxLength: 4000 }],
];

function ApplicationForm() {
  const { register, handleSubmit, formState } = useForm({
    defaultValues: { country: 'CH', newsletter: false, priority: 'normal' },
  });
  const submit = async (values) => {
    const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v != null));
    await fetch('/api/applications', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ninefold-csrf': '1' },
      body: JSON.stringify(body),
    });
  };
  return (
    <form onSubmit={handleSubmit(submit)} noValidate>
      {FIELDS.map(([name, label, type, rules, options]) => {
        const id = `f-${name}`;
        const error = formState.errors[name];
        const input =
          type === 'select' ? (
            <select id={id} {...register(name, rules)}>
              {options.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          ) : type === 'textarea' ? (
            <textarea id={id} rows={4} {...register(name, rules)} />
          ) : (
            <input id={id} type={type} {...register(name, rules)} />
          );
        return (
          <div className="field" key={name}>
            <label htmlFor={id}>{label}</label>
            {input}
            {error === undefined ? null : <p role="alert">{label} is not valid.</p>}
          </div>
        );
      })}
      <button type="submit">Create</button>
    </form>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <main>
      <h1>New application</h1>
      <ApplicationForm />
    </main>
  </StrictMode>,
);
