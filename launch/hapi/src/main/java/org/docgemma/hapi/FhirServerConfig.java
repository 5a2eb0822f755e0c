package org.docgemma.hapi;

import ca.uhn.fhir.batch2.jobs.config.Batch2JobsConfig;
import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.context.support.IValidationSupport;
import ca.uhn.fhir.jpa.api.config.JpaStorageSettings;
import ca.uhn.fhir.jpa.api.config.ThreadPoolFactoryConfig;
import ca.uhn.fhir.jpa.api.dao.IFhirSystemDao;
import ca.uhn.fhir.jpa.batch2.JpaBatch2Config;
import ca.uhn.fhir.jpa.binary.api.IBinaryStorageSvc;
import ca.uhn.fhir.jpa.binstore.MemoryBinaryStorageSvcImpl;
import ca.uhn.fhir.jpa.config.HapiJpaConfig;
import ca.uhn.fhir.jpa.config.r4.JpaR4Config;
import ca.uhn.fhir.jpa.config.util.HapiEntityManagerFactoryUtil;
import ca.uhn.fhir.jpa.model.config.PartitionSettings;
import ca.uhn.fhir.jpa.model.config.SubscriptionSettings;
import ca.uhn.fhir.jpa.provider.IJpaSystemProvider;
import ca.uhn.fhir.jpa.provider.JpaCapabilityStatementProvider;
import ca.uhn.fhir.jpa.search.DatabaseBackedPagingProvider;
import ca.uhn.fhir.jpa.subscription.channel.config.SubscriptionChannelConfig;
import ca.uhn.fhir.rest.server.RestfulServer;
import ca.uhn.fhir.rest.server.interceptor.CorsInterceptor;
import ca.uhn.fhir.rest.server.provider.ResourceProviderFactory;
import ca.uhn.fhir.rest.server.util.ISearchParamRegistry;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.Meta;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.web.cors.CorsConfiguration;

/**
 * Wiring of HAPI's JPA R4 server: HAPI's own configuration classes, plus the few beans an
 * application must supply (storage settings, entity manager factory, transaction manager, binary
 * storage) and the FHIR servlet on {@code /fhir/*}.
 *
 * <p>Settings chosen for tests and a local sandbox: search results are never reused from cache (a
 * resource created by one test is found by the next search), expunge and multiple delete are on,
 * client-assigned ids must be alphanumeric (so fixtures can PUT their own ids).
 */
@Configuration
@Import({
  JpaR4Config.class,
  HapiJpaConfig.class,
  ThreadPoolFactoryConfig.class,
  JpaBatch2Config.class,
  Batch2JobsConfig.class,
  SubscriptionChannelConfig.class
})
public class FhirServerConfig {

  @Bean
  public JpaStorageSettings storageSettings() {
    JpaStorageSettings settings = new JpaStorageSettings();
    settings.setReuseCachedSearchResultsForMillis(null);
    settings.setExpungeEnabled(true);
    settings.setAllowMultipleDelete(true);
    settings.setResourceClientIdStrategy(JpaStorageSettings.ClientIdStrategyEnum.ALPHANUMERIC);
    settings.setEnforceReferentialIntegrityOnWrite(true);
    settings.setEnforceReferentialIntegrityOnDelete(true);
    return settings;
  }

  @Bean
  public PartitionSettings partitionSettings() {
    return new PartitionSettings();
  }

  @Bean
  public SubscriptionSettings subscriptionSettings() {
    return new SubscriptionSettings();
  }

  @Bean
  public IBinaryStorageSvc binaryStorageSvc() {
    return new MemoryBinaryStorageSvcImpl();
  }

  @Bean
  @Primary
  public LocalContainerEntityManagerFactoryBean entityManagerFactory(
      ConfigurableListableBeanFactory beanFactory,
      FhirContext fhirContext,
      JpaStorageSettings storageSettings,
      DataSource dataSource) {
    LocalContainerEntityManagerFactoryBean factory =
        HapiEntityManagerFactoryUtil.newEntityManagerFactory(beanFactory, fhirContext, storageSettings);
    factory.setPersistenceUnitName("HAPI_PU");
    factory.setDataSource(dataSource);
    factory.setJpaProperties(jpaProperties());
    return factory;
  }

  private static Properties jpaProperties() {
    Properties props = new Properties();
    props.put("hibernate.dialect", "ca.uhn.fhir.jpa.model.dialect.HapiFhirH2Dialect");
    props.put("hibernate.hbm2ddl.auto", "update");
    props.put("hibernate.search.enabled", "false");
    props.put("hibernate.jdbc.batch_size", "20");
    props.put("hibernate.cache.use_query_cache", "false");
    props.put("hibernate.cache.use_second_level_cache", "false");
    props.put("hibernate.cache.use_structured_entries", "false");
    props.put("hibernate.archive.scanner", "org.hibernate.boot.archive.scan.internal.DisabledScanner");
    props.put("hibernate.implicit_naming_strategy",
        "org.springframework.boot.orm.jpa.hibernate.SpringImplicitNamingStrategy");
    props.put("hibernate.physical_naming_strategy",
        "org.hibernate.boot.model.naming.CamelCaseToUnderscoresNamingStrategy");
    return props;
  }

  @Bean
  @Primary
  public JpaTransactionManager transactionManager(EntityManagerFactory entityManagerFactory) {
    return new JpaTransactionManager(entityManagerFactory);
  }

  @Bean
  public RestfulServer fhirRestfulServer(
      IFhirSystemDao<Bundle, Meta> systemDao,
      IJpaSystemProvider systemProvider,
      ResourceProviderFactory resourceProviders,
      JpaStorageSettings storageSettings,
      ISearchParamRegistry searchParamRegistry,
      IValidationSupport validationSupport,
      DatabaseBackedPagingProvider pagingProvider) {
    RestfulServer server = new RestfulServer(systemDao.getContext());
    server.registerProviders(resourceProviders.createProviders());
    server.registerProvider(systemProvider);
    server.setServerConformanceProvider(new JpaCapabilityStatementProvider(
        server, systemDao, storageSettings, searchParamRegistry, validationSupport));
    // HapiJpaConfig supplies the provider (default 10, max 50); a chart review wants bigger pages.
    pagingProvider.setDefaultPageSize(20);
    pagingProvider.setMaximumPageSize(200);
    server.setPagingProvider(pagingProvider);
    server.setDefaultResponseEncoding(ca.uhn.fhir.rest.api.EncodingEnum.JSON);
    server.registerInterceptor(new CorsInterceptor(cors()));
    return server;
  }

  private static CorsConfiguration cors() {
    CorsConfiguration config = new CorsConfiguration();
    config.setAllowedOriginPatterns(List.of("*"));
    config.setAllowedHeaders(List.of("Origin", "Accept", "Content-Type", "Authorization", "Cache-Control",
        "If-Match", "If-None-Match", "If-None-Exist", "Prefer", "X-Requested-With"));
    config.setExposedHeaders(List.of("Location", "Content-Location", "ETag", "Last-Modified"));
    config.setAllowedMethods(List.of("GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "HEAD"));
    return config;
  }

  @Bean
  public ServletRegistrationBean<RestfulServer> fhirServlet(RestfulServer fhirRestfulServer) {
    ServletRegistrationBean<RestfulServer> registration =
        new ServletRegistrationBean<>(fhirRestfulServer, "/fhir/*");
    registration.setLoadOnStartup(1);
    return registration;
  }
}
